package io.flashsale.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Named child processes of one run, each writing to {@code <logs>/<name>.log}: started with an
 * environment, awaited (a health URL or a log line), stopped in reverse start order (TERM, then
 * KILL after 30 s) and killed should the JVM exit without {@link #close()}. {@link FlashSaleStack}
 * runs Temporal, the apis and the workers this way.
 */
public final class Processes implements AutoCloseable {

    /** What {@code /actuator/health} holds once the app is UP. */
    public static final String HEALTHY = "\"status\":\"UP\"";

    private final Path logs;
    private final Duration readyTimeout;
    private final Map<String, Process> processes = Collections.synchronizedMap(new LinkedHashMap<>());
    private final Thread killOnExit = new Thread(this::killAll, "processes-kill-on-exit");

    /** {@code readyTimeout}: how long {@link #awaitHealthy} and {@link #awaitLog} wait. */
    public Processes(Path logs, Duration readyTimeout) throws IOException {
        this.logs = Files.createDirectories(logs);
        this.readyTimeout = readyTimeout;
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** Starts {@code command} as {@code name}, output and errors to its log. */
    public Process start(String name, List<String> command, Map<String, String> environment) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log(name).toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        processes.put(name, process);
        return process;
    }

    /** The process started as {@code name}, alive or not. */
    public Process get(String name) {
        Process process = processes.get(name);
        if (process == null) {
            throw new IllegalArgumentException("no process " + name);
        }
        return process;
    }

    public Path log(String name) {
        return logs.resolve(name + ".log");
    }

    /** Waits until {@code name} answers UP on {@code /actuator/health} at {@code port}. */
    public void awaitHealthy(String name, int port) throws Exception {
        String health = "http://127.0.0.1:" + port + "/actuator/health";
        await(name, () -> Http.ok(health, HEALTHY), readyTimeout);
    }

    /** Waits until {@code name} has logged {@code marker}. */
    public void awaitLog(String name, String marker) throws Exception {
        awaitLog(name, marker, readyTimeout);
    }

    /** {@link #awaitLog(String, String)} with a timeout of its own. */
    public void awaitLog(String name, String marker, Duration timeout) throws Exception {
        await(name, () -> Files.exists(log(name)) && Files.readString(log(name)).contains(marker), timeout);
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private void await(String name, Check check, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!check.ok()) {
            if (!get(name).isAlive()) {
                throw new IllegalStateException(name + " exited; see " + log(name));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " not ready within " + timeout + "; see " + log(name));
            }
            Thread.sleep(250);
        }
    }

    /** The niceness of the process {@code pid} ({@link #stat} field 19). Fails when the process is gone. */
    public static int niceness(long pid) throws IOException {
        return (int) stat(pid, 19);
    }

    /**
     * Field {@code field} of {@code /proc/PID/stat}, numbered as proc(5) does (1: the pid, 14: user
     * time in clock ticks, 19: niceness). Fails when the process is gone.
     */
    public static long stat(long pid, int field) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // field 3 (the state) comes after the command, which may hold spaces and parentheses
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[field - 3]);
    }

    /**
     * Runs {@code command} to its end, output and errors appended to {@code log}; its exit status, or
     * -1 when it did not end within {@code timeout} (it is killed then).
     */
    public static int exec(List<String> command, Map<String, String> environment, Path log, Duration timeout)
            throws IOException, InterruptedException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
        } finally {
            process.destroyForcibly();
        }
    }

    /** The java launcher of this JVM, for children that run on the same Java. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Stops the processes in reverse start order: TERM, then KILL after 30 s. */
    @Override
    public void close() {
        List<Process> stopping;
        synchronized (processes) {
            stopping = new ArrayList<>(processes.values());
            processes.clear();
        }
        Collections.reverse(stopping);
        for (Process process : stopping) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException jvmExiting) {
            // the hook is running or about to: nothing left for it to do
        }
    }

    private void killAll() {
        synchronized (processes) {
            processes.values().forEach(Process::destroyForcibly);
        }
    }
}
