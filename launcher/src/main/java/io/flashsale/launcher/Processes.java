package io.flashsale.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Named child processes of one run, each logging to {@code <logs>/<name>[.N].log}, stopped by {@link #close()}. */
public final class Processes implements AutoCloseable, Launch {

    private final Path logs;
    private final Duration readyTimeout;
    private final Map<String, Process> processes = Collections.synchronizedMap(new LinkedHashMap<>());
    private final Map<String, Integer> starts = new HashMap<>();
    private final Thread killOnExit = new Thread(this::killAll, "processes-kill-on-exit");

    /** {@code readyTimeout}: how long {@link #awaitLog(String, String)} waits. */
    public Processes(Path logs, Duration readyTimeout) throws IOException {
        this.logs = Files.createDirectories(logs);
        this.readyTimeout = readyTimeout;
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** Starts {@code command} as {@code name} (again, once its last process has exited), output and errors to its log. */
    @Override
    public synchronized Process start(String name, List<String> command, Map<String, String> environment)
            throws IOException {
        if (processes.containsKey(name) && get(name).isAlive()) {
            throw new IllegalStateException(
                    name + " still runs (pid " + get(name).pid() + ")");
        }
        starts.merge(name, 1, Integer::sum);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log(name).toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        processes.put(name, process);
        return process;
    }

    @Override
    public boolean alive(String name) {
        return get(name).isAlive();
    }

    @Override
    public Process get(String name) {
        return Optional.ofNullable(processes.get(name))
                .orElseThrow(() -> new IllegalArgumentException("no process " + name));
    }

    /** The log of the process last started as {@code name}. */
    public synchronized Path log(String name) {
        int count = starts.getOrDefault(name, 1);
        return logs.resolve(count <= 1 ? name + ".log" : name + "." + count + ".log");
    }

    @Override
    public void await(String name, Duration timeout, Await.Check ready) throws InterruptedException {
        Await.until(name + "; see " + log(name), timeout, () -> alive(name), ready);
    }

    /** Waits until {@code name} has logged {@code marker}. */
    public void awaitLog(String name, String marker) throws InterruptedException {
        awaitLog(name, marker, readyTimeout);
    }

    public void awaitLog(String name, String marker, Duration timeout) throws InterruptedException {
        await(name, timeout, () -> Files.readString(log(name)).contains(marker));
    }

    /** SIGKILL of the child {@code process}, refused unless it is the live {@code what} (a child's pid is never reused). */
    public static void kill(Process process, String what) {
        if (!process.isAlive()) {
            throw new IllegalStateException("pid " + process.pid() + " is not the live " + what);
        }
        kill(process.toHandle());
    }

    /** Field {@code field} of {@code /proc/PID/stat}, numbered as proc(5) does (14: user time in ticks, 19: niceness). */
    public static long stat(long pid, int field) throws IOException {
        return stat(pid, new int[] {field})[0];
    }

    /** The same for several {@code fields} of one reading of the file. */
    public static long[] stat(long pid, int... fields) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // field 3 (the state) comes after the command, which may hold spaces and parentheses
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Arrays.stream(fields)
                .mapToLong(field -> Long.parseLong(after[field - 3]))
                .toArray();
    }

    /** Runs {@code command} to its end, output appended to {@code log}; its exit status, -1 (killed) past {@code timeout}. */
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

    /** Deletes the data folder {@code path} of a server and everything under it; nothing when it is not there. */
    public static void deleteFolder(Path path) throws IOException {
        if (Files.exists(path)) {
            try (Stream<Path> files = Files.walk(path)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    /** The java launcher of this JVM, for children that run on the same Java. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** TERM, then KILL once {@code patience} has passed; whether it took the KILL. */
    public static boolean stop(ProcessHandle process, Duration patience) {
        process.destroy();
        if (exited(process, patience)) {
            return false;
        }
        kill(process);
        return true;
    }

    /** SIGKILL, back once the process is gone (its port and files free), or after 10 s in uninterruptible sleep. */
    public static void kill(ProcessHandle process) {
        process.destroyForcibly();
        exited(process, Duration.ofSeconds(10));
    }

    private static boolean exited(ProcessHandle process, Duration patience) {
        process.onExit()
                .completeOnTimeout(process, patience.toMillis(), TimeUnit.MILLISECONDS)
                .join();
        return !process.isAlive();
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
        stopping.forEach(process -> stop(process.toHandle(), Duration.ofSeconds(30)));
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
