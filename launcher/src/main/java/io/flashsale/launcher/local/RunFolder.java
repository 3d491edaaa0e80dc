package io.flashsale.launcher.local;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.Launch;
import io.flashsale.launcher.Processes;
import io.flashsale.launcher.temporal.DevServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The processes of {@code bin/flashsale up} across invocations, by name: each detached, its pid and
 * command in {@code <run>/NAME.pid}, its output in {@code <run>/logs/NAME.log}. A pid file counts only
 * while the pid's command line is still the recorded command's ({@link #pid}), never another process's.
 *
 * @param root the checkout, which messages show paths relative to
 * @param environment what every process gets on top of this JVM's environment
 */
record RunFolder(Path root, Path path, Map<String, String> environment) implements Launch {

    static final String API = "api";
    static final String WORKER = "worker";
    static final String TEMPORAL = DevServer.PROCESS;
    static final String PROMETHEUS = "prometheus";
    static final String JAEGER = "jaeger";
    static final String FRONTEND = "temporal-frontend";

    private static final String BUILD = "worker-";
    private static final String BUILD_ARGUMENT = "--flashsale.worker.deployment.build-id=";

    /** What {@code up} starts, in stop order (the reverse of the start order). */
    private static final List<String> NAMES = List.of(("prometheus api worker jaeger temporal temporal-ui"
                    + " temporal-history-2 temporal-history-1 temporal-worker temporal-matching temporal-frontend")
            .split(" "));

    /** Every name, in stop order, with the workers of other builds that left a pid file or a log. */
    List<String> names() {
        List<String> all = new ArrayList<>(NAMES);
        Set<String> builds = new TreeSet<>();
        for (Path folder : List.of(path, path.resolve("logs"))) {
            try (Stream<String> files =
                    Files.list(folder).map(file -> file.getFileName().toString())) {
                files.filter(name -> name.startsWith(BUILD) && (name.endsWith(".pid") || name.endsWith(".log")))
                        .forEach(name -> builds.add(name.substring(0, name.length() - 4)));
            } catch (IOException noFolder) {
                // nothing there yet
            }
        }
        all.addAll(all.indexOf(WORKER), builds);
        return all;
    }

    /** Whether {@code name} is shown by {@code status} and {@code logs} without a trace: a process {@code up} always starts. */
    static boolean always(String name) {
        return List.of(API, WORKER, TEMPORAL).contains(name);
    }

    /** The worker of build {@code buildId} that {@code worker start} runs beside {@code up}'s. */
    static String workerOfBuild(String buildId) {
        return BUILD + buildId;
    }

    /** The worker's argument that makes it build {@code buildId} of its Worker Deployment. */
    static String buildArgument(String buildId) {
        return BUILD_ARGUMENT + buildId;
    }

    /** The app the process {@code name} runs: the api, or a worker of any build. */
    static FlashSaleStack.App app(String name) {
        return name.equals(API) ? FlashSaleStack.App.API : FlashSaleStack.App.WORKER;
    }

    Path log(String name) {
        return path.resolve("logs").resolve(name + ".log");
    }

    Path pidFile(String name) {
        return path.resolve(name + ".pid");
    }

    /** {@code path} relative to the checkout when inside it ({@code .run/logs/api.log}), else as it is. */
    String shown(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        return absolute.startsWith(root) ? root.relativize(absolute).toString() : absolute.toString();
    }

    /**
     * The pid of the process {@code name}, when its pid file names a live process whose command line
     * is the recorded command or, as it execs along {@link #detached}, a tail of it.
     */
    Optional<Long> pid(String name) {
        return recorded(name)
                .filter(file -> commandLine(file.pid())
                        .filter(live -> !live.isEmpty() && ("\0" + file.command()).endsWith("\0" + live))
                        .isPresent())
                .map(PidFile::pid);
    }

    /** Whether {@code name} runs, saying so when it does. */
    boolean alreadyRunning(String name) {
        Optional<Long> running = pid(name);
        running.ifPresent(pid -> System.out.println(name + ": already running (pid " + pid + ")"));
        return running.isPresent();
    }

    /** The local worker that polls as build {@code buildId}: up's worker or one 'worker start' started. */
    Optional<String> workerOf(String buildId) {
        String started = workerOfBuild(buildId);
        return pid(started).map(pid -> started).or(() -> pid(WORKER)
                .flatMap(RunFolder::commandLine)
                .filter(line -> Arrays.asList(line.split("\0")).contains(buildArgument(buildId)))
                .map(line -> WORKER));
    }

    private static Optional<String> commandLine(long pid) {
        try {
            String line = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"));
            return Optional.of(line.endsWith("\0") ? line.substring(0, line.length() - 1) : line);
        } catch (IOException gone) {
            return Optional.empty();
        }
    }

    /** What a pid file holds: the pid, then the command started, NUL between its arguments. */
    private record PidFile(long pid, String command) {}

    private Optional<PidFile> recorded(String name) {
        try {
            String[] file = Files.readString(pidFile(name)).split("\n", 2);
            return Optional.of(new PidFile(Long.parseLong(file[0].trim()), file.length < 2 ? "" : file[1].strip()));
        } catch (IOException | NumberFormatException none) {
            return Optional.empty();
        }
    }

    /** Starts {@code command} detached ({@link #detached}) and records its pid and command, NUL between arguments. */
    @Override
    public Process start(String name, List<String> command, Map<String, String> extra) throws IOException {
        Files.createDirectories(log(name).getParent());
        List<String> detached = detached(command);
        ProcessBuilder builder = new ProcessBuilder(detached)
                .redirectErrorStream(true)
                .redirectOutput(log(name).toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().putAll(environment);
        builder.environment().putAll(extra);
        Process process = builder.start();
        Files.writeString(pidFile(name), process.pid() + "\n" + String.join("\0", detached) + "\n");
        System.out.println("started " + name + " (pid " + process.pid() + ", log " + shown(log(name)) + ")");
        return process;
    }

    /** Whether the pid recorded for {@code name} is alive: its command line reads empty between a start's execs. */
    @Override
    public boolean alive(String name) {
        return recorded(name)
                .flatMap(file -> ProcessHandle.of(file.pid()))
                .filter(ProcessHandle::isAlive)
                .isPresent();
    }

    /** Sets the session's autogroup niceness (where the kernel has autogroups), then runs the command. */
    private static final String GROUP_NICENESS =
            """
            g=/proc/self/autogroup
            [ ! -e $g ] || for try in 1 2 3 4 5; do
              { echo %1$d > $g; } 2>/dev/null && break
              [ $try = 5 ] && echo "flashsale: the scheduling group kept its niceness ($g)" >&2
              sleep 0.1
            done
            exec "$@"
            """;

    /**
     * {@code setsid nohup command}. A session is a scheduling autogroup, and between autogroups a nice
     * value counts for nothing (sched(7)), so a {@link FlashSaleStack#niced} command gives its group
     * the same niceness; the kernel takes one such write per 100 ms, hence the retries.
     */
    static List<String> detached(List<String> command) {
        List<String> detached = new ArrayList<>(List.of("setsid", "nohup"));
        if (command.size() > 2 && command.subList(0, 2).equals(List.of("nice", "-n"))) {
            detached.addAll(List.of("sh", "-c", GROUP_NICENESS.formatted(Integer.parseInt(command.get(2))), "sh"));
        }
        detached.addAll(command);
        return detached;
    }

    /** TERM, then KILL after 30 s; a stale pid file goes. */
    void stop(String name) throws IOException {
        Optional<ProcessHandle> process = pid(name).flatMap(ProcessHandle::of);
        if (process.isEmpty()) {
            if (Files.deleteIfExists(pidFile(name))) {
                System.out.println(name + ": not running (removing stale pid file)");
            }
            return;
        }
        long pid = process.get().pid();
        if (Processes.stop(process.get(), Duration.ofSeconds(30))) {
            System.out.println(name + " (pid " + pid + ") still running after 30s, sent KILL");
        }
        Files.deleteIfExists(pidFile(name));
        System.out.println("stopped " + name + " (pid " + pid + ")");
    }

    /** Waits for {@code ready} while {@code name} is {@link #alive}; else its log's tail on stderr and a refusal. */
    @Override
    public void await(String name, Duration timeout, Await.Check ready) throws InterruptedException {
        try {
            Await.until(name, timeout, () -> alive(name), ready);
        } catch (IllegalStateException failed) {
            try {
                List<String> lines = Files.readAllLines(log(name));
                System.err.println("---- last lines of " + shown(log(name)) + " ----");
                lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(System.err::println);
                System.err.println("----");
            } catch (IOException noTextLog) {
                // nothing logged, or a binary log: the refusal names it
            }
            String stop = name.startsWith(BUILD)
                    ? "'bin/flashsale worker stop " + name.substring(BUILD.length())
                            + " --force' stops what may still run"
                    : "'bin/flashsale down' stops what still runs";
            throw new IllegalStateException(failed.getMessage() + " (log " + shown(log(name)) + "); " + stop);
        }
    }
}
