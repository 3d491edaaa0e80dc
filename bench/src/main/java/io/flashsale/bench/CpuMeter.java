package io.flashsale.bench;

import io.flashsale.launcher.Processes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time each process of a stack spends (the kernel's account): the api, the worker and Temporal
 * by pid, Redis and MySQL by command name, PostgreSQL as its server with every backend, ended ones
 * included. Stable across machines where seconds are not, so the bench reports it per unit of work.
 */
record CpuMeter(Map<String, ProcessHandle> processes) {

    /** The kernel's clock ticks a second in {@code /proc/PID/stat} (USER_HZ), 100 on Linux. */
    private static final long CLOCK_TICKS = 100;

    static CpuMeter of(Stack stack) {
        Map<String, ProcessHandle> found = new LinkedHashMap<>();
        found.put("api", stack.flashSale().process("api").toHandle());
        found.put("worker", stack.flashSale().process("worker").toHandle());
        // the dev server as "temporal", a cluster's nodes as "temporal-frontend", "temporal-history-1", ...
        found.putAll(stack.temporal().processes());
        named("redis-server").stream().findFirst().ifPresent(redis -> found.put("redis", redis));
        named("mariadbd").stream()
                .findFirst()
                .or(() -> named("mysqld").stream().findFirst())
                .ifPresent(mysql -> found.put("mysql", mysql));
        return new CpuMeter(found);
    }

    CpuMeter including(String name, ProcessHandle process) {
        Map<String, ProcessHandle> more = new LinkedHashMap<>(processes);
        more.put(name, process);
        return new CpuMeter(more);
    }

    /** Each process's niceness ({@link Processes#niceness}); absent for a process that is gone. */
    Map<String, Integer> niceness() {
        Map<String, Integer> niceness = new LinkedHashMap<>();
        processes.forEach((name, process) -> {
            try {
                niceness.put(name, Processes.niceness(process.pid()));
            } catch (IOException | RuntimeException gone) {
                // not running (or no /proc): nothing to say
            }
        });
        return niceness;
    }

    Map<String, Duration> read() {
        Map<String, Duration> used = new LinkedHashMap<>();
        processes.forEach((name, process) ->
                used.put(name, process.info().totalCpuDuration().orElse(Duration.ZERO)));
        List<ProcessHandle> postgres = named("postgres");
        if (!postgres.isEmpty()) {
            used.put(
                    "postgresql",
                    Duration.ofMillis(
                            postgres.stream().mapToLong(CpuMeter::ticks).sum() * 1000 / CLOCK_TICKS));
        }
        return used;
    }

    /**
     * A PostgreSQL process's user and system ticks (fields 14, 15 of {@code /proc/PID/stat}); the
     * server's (whose parent is no {@code postgres}) with those of its ended backends (16, 17); 0 once gone.
     */
    private static long ticks(ProcessHandle process) {
        boolean server =
                process.parent().map(p -> !"postgres".equals(name(p.pid()))).orElse(true);
        try {
            long sum = 0;
            for (int field = 14; field <= (server ? 17 : 15); field++) {
                sum += Processes.stat(process.pid(), field);
            }
            return sum;
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
    }

    /** Each process's CPU between {@code before} and now, in milliseconds per {@code units}. */
    Map<String, Double> millisPer(Map<String, Duration> before, long units) {
        Map<String, Double> per = new LinkedHashMap<>();
        read().forEach((name, now) -> per.put(
                name,
                Math.round(now.minus(before.getOrDefault(name, now)).toNanos() / 1e6 / Math.max(1, units) * 1000)
                        / 1000.0));
        return per;
    }

    /**
     * The processes whose name ({@code /proc/PID/comm}) is {@code command}, oldest (the server, not a
     * helper it forked) first. By name, not by executable: Debian's redis-server is a link to
     * redis-check-rdb.
     */
    private static List<ProcessHandle> named(String command) {
        return ProcessHandle.allProcesses()
                .filter(p -> command.equals(name(p.pid())))
                .sorted(Comparator.comparingLong(ProcessHandle::pid))
                .toList();
    }

    /**
     * The share of the machine's CPU time its hypervisor gave to other guests ({@code steal} of
     * {@code /proc/stat}), reported beside each phase: a busy host makes the same work slower.
     */
    record Stolen(long steal, long total) {

        static Stolen read() {
            try {
                return parse(Files.readAllLines(Path.of("/proc/stat")).get(0));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** {@code cpu  user nice system idle iowait irq softirq steal ...} in clock ticks; the total is those eight. */
        static Stolen parse(String cpuLine) {
            String[] fields = cpuLine.trim().split("\\s+");
            if (!fields[0].equals("cpu") || fields.length < 9) {
                throw new IllegalArgumentException("not the cpu line of /proc/stat: " + cpuLine);
            }
            long total = 0;
            for (int i = 1; i <= 8; i++) {
                total += Long.parseLong(fields[i]);
            }
            return new Stolen(Long.parseLong(fields[8]), total);
        }

        /** Percent of the machine's CPU time stolen between {@code before} and this reading. */
        double percentSince(Stolen before) {
            long elapsed = total - before.total;
            return elapsed <= 0 ? 0 : 100.0 * (steal - before.steal) / elapsed;
        }
    }

    private static String name(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "comm"))
                    .strip();
        } catch (IOException | RuntimeException gone) {
            return "";
        }
    }
}
