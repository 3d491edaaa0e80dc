package io.flashsale.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The share of the machine's CPU time its hypervisor gave to other guests (the {@code steal} of
 * {@code /proc/stat}), reported beside each phase: a busy host makes the same work slower.
 */
record StolenCpu(long steal, long total) {

    private static final Path STAT = Path.of("/proc/stat");

    /** The counters now (the bench runs on Linux, as its {@link CpuMeter} does). */
    static StolenCpu read() {
        try {
            return parse(Files.readAllLines(STAT).get(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code cpu  user nice system idle iowait irq softirq steal ...} in clock ticks; the total is
     * the sum of those eight.
     */
    static StolenCpu parse(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        if (!fields[0].equals("cpu") || fields.length < 9) {
            throw new IllegalArgumentException("not the cpu line of /proc/stat: " + cpuLine);
        }
        long total = 0;
        for (int i = 1; i <= 8; i++) {
            total += Long.parseLong(fields[i]);
        }
        return new StolenCpu(Long.parseLong(fields[8]), total);
    }

    /** Percent of the machine's CPU time stolen between {@code before} and this reading. */
    double percentSince(StolenCpu before) {
        long elapsed = total - before.total;
        return elapsed <= 0 ? 0 : 100.0 * (steal - before.steal) / elapsed;
    }
}
