package io.flashsale.bench;

import io.flashsale.launcher.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CPU time each process of the stack spends over a stretch of load (the kernel's account in {@code
 * /proc}, read through {@link ProcessHandle}): the api, the worker and Temporal by the pids the
 * bench started, Redis and MySQL by their command names, and PostgreSQL (the Temporal cluster's
 * store) as its server with every backend, those that ended included. Stable across machines where
 * seconds are not, so the bench reports it per unit of work.
 */
final class CpuMeter {

    /** The kernel's clock ticks a second in {@code /proc/PID/stat} (USER_HZ), 100 on Linux. */
    private static final long CLOCK_TICKS = 100;

    /** Fields of {@code /proc/PID/stat}: own user and system time, then that of ended children. */
    private static final int UTIME = 14;

    private static final int STIME = 15;
    private static final int CUTIME = 16;
    private static final int CSTIME = 17;

    private final Map<String, ProcessHandle> processes;

    private CpuMeter(Map<String, ProcessHandle> processes) {
        this.processes = processes;
    }

    static CpuMeter of(Stack stack) {
        Map<String, ProcessHandle> found = new LinkedHashMap<>();
        found.put("api", stack.process("api").toHandle());
        found.put("worker", stack.process("worker").toHandle());
        // the dev server as "temporal", a cluster's nodes as "temporal-frontend", "temporal-history-1", ...
        stack.temporal()
                .processes()
                .forEach((name, process) -> found.put(name.equals("temporal") ? name : "temporal-" + name, process));
        byCommand("redis-server").ifPresent(redis -> found.put("redis", redis));
        byCommand("mariadbd").or(() -> byCommand("mysqld")).ifPresent(mysql -> found.put("mysql", mysql));
        return new CpuMeter(found);
    }

    /** This meter and {@code process}, counted as {@code name}. */
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

    /** CPU used so far by each process. */
    Map<String, Duration> read() {
        Map<String, Duration> used = new LinkedHashMap<>();
        processes.forEach((name, process) ->
                used.put(name, process.info().totalCpuDuration().orElse(Duration.ZERO)));
        postgresql().ifPresent(cpu -> used.put("postgresql", cpu));
        return used;
    }

    /**
     * PostgreSQL's CPU so far: every process named {@code postgres} (the server and its backends,
     * one a connection) and what the server's ended children spent ({@code cutime}, {@code cstime}
     * of {@code /proc/PID/stat}); absent when no PostgreSQL runs.
     */
    private static Optional<Duration> postgresql() {
        List<ProcessHandle> postgres = ProcessHandle.allProcesses()
                .filter(process -> "postgres".equals(name(process.pid())))
                .toList();
        if (postgres.isEmpty()) {
            return Optional.empty();
        }
        long ticks = 0;
        for (ProcessHandle process : postgres) {
            ticks += ticks(process.pid(), UTIME, STIME);
            boolean server = process.parent()
                    .map(parent -> !"postgres".equals(name(parent.pid())))
                    .orElse(true);
            if (server) {
                ticks += ticks(process.pid(), CUTIME, CSTIME);
            }
        }
        return Optional.of(Duration.ofMillis(ticks * 1000 / CLOCK_TICKS));
    }

    /** The sum of fields {@code from} to {@code to} of {@code /proc/PID/stat} ({@link Processes#stat}); 0 once gone. */
    private static long ticks(long pid, int from, int to) {
        try {
            long sum = 0;
            for (int field = from; field <= to; field++) {
                sum += Processes.stat(pid, field);
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
     * The oldest process whose name ({@code /proc/PID/comm}) is {@code command}: the server, not a
     * helper it forked. By name, not by executable: Debian's redis-server is a link to
     * redis-check-rdb.
     */
    private static Optional<ProcessHandle> byCommand(String command) {
        return ProcessHandle.allProcesses()
                .filter(p -> command.equals(name(p.pid())))
                .min((a, b) -> Long.compare(a.pid(), b.pid()));
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
