package io.flashsale.bench;

import io.flashsale.launcher.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/** CPU time of each process of a stack with its ended children's, per unit of work: stabler than seconds. */
record CpuMeter(Map<String, ProcessHandle> processes) {

    /** USER_HZ, the clock ticks a second in {@code /proc/PID/stat}. */
    private static final long CLOCK_TICKS = 100;

    static CpuMeter of(Stack stack) {
        Map<String, ProcessHandle> found = new LinkedHashMap<>();
        found.put("api", stack.flashSale().process("api").toHandle());
        found.put("worker", stack.flashSale().process("worker").toHandle());
        // the dev server as "temporal", a cluster's nodes as "temporal-frontend", "temporal-history-1", ...
        found.putAll(stack.temporal().processes());
        named("redis-server").findFirst().ifPresent(redis -> found.put("redis", redis));
        Stream.concat(named("mariadbd"), named("mysqld")).findFirst().ifPresent(mysql -> found.put("mysql", mysql));
        return new CpuMeter(found);
    }

    CpuMeter including(String name, ProcessHandle process) {
        Map<String, ProcessHandle> more = new LinkedHashMap<>(processes);
        more.put(name, process);
        return new CpuMeter(more);
    }

    /** Each process's niceness (0 for one that is gone). */
    Map<String, Integer> niceness() {
        Map<String, Integer> niceness = new LinkedHashMap<>();
        processes.forEach((name, process) -> niceness.put(name, (int) stat(process, 19)[0]));
        return niceness;
    }

    /** Each process's CPU so far, and PostgreSQL's (its server, every backend, ended ones included). */
    Map<String, Duration> read() {
        Map<String, Duration> used = new LinkedHashMap<>();
        processes.forEach((name, process) -> used.put(name, cpu(Stream.of(process))));
        List<ProcessHandle> postgres = named("postgres").toList();
        if (!postgres.isEmpty()) {
            used.put("postgresql", cpu(postgres.stream()));
        }
        return used;
    }

    /** Each process's CPU between {@code before} and now, in milliseconds per {@code units}. */
    Map<String, Double> millisPer(Map<String, Duration> before, long units) {
        return millisPer(before, read(), units);
    }

    /** Each process's CPU between the readings {@code before} and {@code after}, in milliseconds per {@code units}. */
    static Map<String, Double> millisPer(Map<String, Duration> before, Map<String, Duration> after, long units) {
        Map<String, Double> per = new LinkedHashMap<>();
        after.forEach((name, now) -> {
            double millis = now.minus(before.getOrDefault(name, now)).toNanos() / 1e6;
            per.put(name, Math.round(millis / Math.max(1, units) * 1000) / 1000.0);
        });
        return per;
    }

    /** User and system time of the processes and their ended children (fields 14-17 of /proc/PID/stat). */
    private static Duration cpu(Stream<ProcessHandle> processes) {
        long ticks = processes
                .mapToLong(p -> LongStream.of(stat(p, 14, 15, 16, 17)).sum())
                .sum();
        return Duration.ofMillis(ticks * 1000 / CLOCK_TICKS);
    }

    /** {@code fields} of the process's /proc/PID/stat, read once; zeros for a process that is gone. */
    private static long[] stat(ProcessHandle process, int... fields) {
        try {
            return Processes.stat(process.pid(), fields);
        } catch (IOException | RuntimeException gone) {
            return new long[fields.length];
        }
    }

    /** The processes named {@code command} in {@code /proc/PID/comm}, oldest (the server, not a fork) first. */
    private static Stream<ProcessHandle> named(String command) {
        return ProcessHandle.allProcesses()
                .filter(p -> {
                    try {
                        return command.equals(Files.readString(Path.of("/proc", "" + p.pid(), "comm"))
                                .strip());
                    } catch (IOException | RuntimeException gone) {
                        return false;
                    }
                })
                .sorted(Comparator.comparingLong(ProcessHandle::pid));
    }

    /** The machine's CPU time its hypervisor gave other guests ({@code steal} of {@code /proc/stat}). */
    record Stolen(long steal, long total) {

        static Stolen read() throws IOException {
            return parse(Files.readAllLines(Path.of("/proc/stat")).get(0));
        }

        /** {@code cpu  user nice system idle iowait irq softirq steal ...} in clock ticks; the total is those eight. */
        static Stolen parse(String cpuLine) {
            String[] fields = cpuLine.trim().split("\\s+");
            if (!fields[0].equals("cpu") || fields.length < 9) {
                throw new IllegalArgumentException("not the cpu line of /proc/stat: " + cpuLine);
            }
            return new Stolen(
                    Long.parseLong(fields[8]),
                    Arrays.stream(fields, 1, 9).mapToLong(Long::parseLong).sum());
        }

        /** Percent of the machine's CPU time stolen between {@code before} and this reading. */
        double percentSince(Stolen before) {
            long elapsed = total - before.total;
            return elapsed <= 0 ? 0 : 100.0 * (steal - before.steal) / elapsed;
        }
    }
}
