package io.flashsale.launcher.local;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.Launch;
import io.flashsale.launcher.Processes;
import io.flashsale.launcher.cluster.TemporalCluster;
import io.flashsale.launcher.temporal.DevServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The processes of {@code bin/flashsale up} across invocations, by name: each detached (it outlives
 * this JVM and the terminal), its pid in {@code <run>/NAME.pid}, its output in {@code
 * <run>/logs/NAME.log}. A pid file counts only while {@code /proc/PID/cmdline} is still that
 * process's ({@link #runs}), so one that outlived its process never names another.
 *
 * @param root the checkout, which messages show paths relative to
 * @param path the run folder
 * @param environment the environment of {@code up}'s apps, for what starts through {@link Launch}
 */
record RunFolder(Path root, Path path, Map<String, String> environment) implements Launch {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    static final String API = "api";
    static final String WORKER = "worker";
    static final String TEMPORAL = DevServer.PROCESS;
    static final String PROMETHEUS = "prometheus";
    static final String JAEGER = "jaeger";
    static final String FRONTEND = "temporal-frontend";

    /** What {@code up} starts, in stop order (the start order is the reverse): the cluster's nodes last. */
    private static final List<String> UP = List.of(
            PROMETHEUS,
            API,
            WORKER,
            JAEGER,
            TEMPORAL,
            "temporal-ui",
            "temporal-history-2",
            "temporal-history-1",
            "temporal-worker",
            "temporal-matching",
            FRONTEND);

    /** Shown by {@code status} and {@code logs} even without a trace; the others only with an option or a command. */
    private static final Set<String> ALWAYS = Set.of(API, WORKER, TEMPORAL);

    private static final String BUILD = "worker-";
    private static final String BUILD_ARGUMENT = "--flashsale.worker.deployment.build-id=";

    @Override
    public void start(String name, List<String> command) throws IOException {
        start(name, command, environment);
    }

    /**
     * Whether the pid last recorded for {@code name} is alive. Not whether its command line is the
     * process's: between the execs of a start (setsid, nohup, sh, nice, the program) that reads
     * empty for a moment.
     */
    @Override
    public boolean alive(String name) {
        return recorded(name)
                .flatMap(ProcessHandle::of)
                .filter(ProcessHandle::isAlive)
                .isPresent();
    }

    /** Every name with a trace here (a pid file or a log), in stop order: the workers of other builds with the worker. */
    List<String> names() {
        List<String> all = new ArrayList<>(UP);
        List<String> builds = Stream.of(named(path, ".pid"), named(path.resolve("logs"), ".log"))
                .flatMap(List::stream)
                .distinct()
                .sorted()
                .toList();
        all.addAll(all.indexOf(WORKER), builds);
        return all;
    }

    /** Whether {@code name} is shown without a trace: a process {@code up} always starts. */
    static boolean always(String name) {
        return ALWAYS.contains(name);
    }

    /** The names of the files {@code worker-*SUFFIX} in {@code folder}, without the suffix. */
    private static List<String> named(Path folder, String suffix) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith(BUILD) && name.endsWith(suffix))
                    .map(name -> name.substring(0, name.length() - suffix.length()))
                    .toList();
        } catch (IOException noFolder) {
            return List.of();
        }
    }

    /** The worker of build {@code buildId} that {@code worker start} runs beside {@code up}'s. */
    static String workerOfBuild(String buildId) {
        return BUILD + buildId;
    }

    /** The worker's argument that makes it build {@code buildId} of its Worker Deployment. */
    static String buildArgument(String buildId) {
        return BUILD_ARGUMENT + buildId;
    }

    /** The build a worker's {@code commandLine} polls as, if versioned. */
    static Optional<String> buildOf(String commandLine) {
        int at = commandLine.indexOf(" " + BUILD_ARGUMENT);
        return at < 0
                ? Optional.empty()
                : Optional.of(
                        commandLine.substring(at + 1 + BUILD_ARGUMENT.length()).split(" ", 2)[0]);
    }

    /** The app the process {@code name} runs: the api, or a worker of any build. */
    static FlashSaleStack.App app(String name) {
        return name.equals(API) ? FlashSaleStack.App.API : FlashSaleStack.App.WORKER;
    }

    /** Whether {@code commandLine} is that of the process {@code name} started in this folder. */
    boolean runs(String name, String commandLine) {
        return switch (name.startsWith(BUILD) ? WORKER : name) {
            case API, WORKER -> commandLine.contains(" " + FlashSaleStack.marker(name) + " ");
            case TEMPORAL -> commandLine.contains(DevServer.marker(DevServer.Kind.CLI));
            case PROMETHEUS -> commandLine.contains("prometheus --config.file=" + path.resolve("prometheus"));
            case JAEGER -> commandLine.contains("jaeger --config " + path.resolve("jaeger"));
            case "temporal-ui" -> commandLine.contains("ui-server");
            default -> commandLine.contains(TemporalCluster.marker(name.substring("temporal-".length())));
        };
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

    /** The pid of the process {@code name}, when its pid file names a live process of it. */
    Optional<Long> pid(String name) {
        return recorded(name)
                .filter(pid -> commandLine(pid).filter(line -> runs(name, line)).isPresent());
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
        if (pid(started).isPresent()) {
            return Optional.of(started);
        }
        return pid(WORKER)
                .flatMap(RunFolder::commandLine)
                .filter(line -> buildOf(line).equals(Optional.of(buildId)))
                .map(line -> WORKER);
    }

    /** The command line of {@code pid}, its arguments joined by spaces; empty once it is gone. */
    private static Optional<String> commandLine(long pid) {
        try {
            return Optional.of(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"))
                    .replace('\0', ' '));
        } catch (IOException gone) {
            return Optional.empty();
        }
    }

    /** The pid in the pid file of {@code name}, whatever process it names now. */
    private Optional<Long> recorded(String name) {
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile(name)).trim()));
        } catch (IOException | NumberFormatException none) {
            return Optional.empty();
        }
    }

    /**
     * Starts {@code command} detached and records its pid: in a session of its own (setsid: no Ctrl-C
     * at the terminal reaches it; not a group leader, so setsid keeps the pid), deaf to hangups (nohup).
     */
    long start(String name, List<String> command, Map<String, String> environment) throws IOException {
        Files.createDirectories(log(name).getParent());
        ProcessBuilder builder = new ProcessBuilder(detached(command))
                .redirectErrorStream(true)
                .redirectOutput(log(name).toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().putAll(environment);
        long pid = builder.start().pid();
        Files.writeString(pidFile(name), pid + "\n");
        System.out.println("started " + name + " (pid " + pid + ", log " + shown(log(name)) + ")");
        return pid;
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
     * {@code setsid nohup command}. A new session is a scheduling autogroup of its own, and between
     * autogroups a process's nice value counts for nothing (sched(7), "The autogroup feature"): a
     * niced back end would take the cores from the api as an equal. So a command that starts with
     * {@link FlashSaleStack#niced} gets its group the same niceness, written from inside the new
     * session, where it touches no other group. The kernel takes one such write per 100 ms from an
     * unprivileged caller, hence the retries; where the group keeps its niceness, the log says so.
     */
    static List<String> detached(List<String> command) {
        List<String> detached = new ArrayList<>(List.of("setsid", "nohup"));
        if (command.size() > 2 && command.subList(0, 2).equals(List.of("nice", "-n"))) {
            detached.addAll(List.of("sh", "-c", GROUP_NICENESS.formatted(Integer.parseInt(command.get(2))), "sh"));
        }
        detached.addAll(command);
        return detached;
    }

    /** TERM, then KILL after the stop timeout; a stale pid file goes. */
    void stop(String name) throws IOException {
        Optional<ProcessHandle> process = pid(name).flatMap(ProcessHandle::of);
        if (process.isEmpty()) {
            if (Files.deleteIfExists(pidFile(name))) {
                System.out.println(name + ": not running (removing stale pid file)");
            }
            return;
        }
        long pid = process.get().pid();
        if (Processes.stop(process.get(), STOP_TIMEOUT)) {
            System.out.println(
                    name + " (pid " + pid + ") still running after " + STOP_TIMEOUT.toSeconds() + "s, sent KILL");
        }
        Files.deleteIfExists(pidFile(name));
        System.out.println("stopped " + name + " (pid " + pid + ")");
    }

    /**
     * Waits for {@code ready} while the process {@code name} is {@link #alive}; when it exits or
     * times out, prints why and its log's tail on stderr and refuses with {@code refusal}.
     */
    void await(String name, Duration timeout, Await.Check ready, String refusal) throws InterruptedException {
        try {
            Await.until(name, timeout, () -> alive(name), ready);
        } catch (IllegalStateException failed) {
            System.err.println("flashsale: " + failed.getMessage());
            printTail(name);
            throw new Refused(refusal);
        }
    }

    private void printTail(String name) {
        try {
            List<String> lines = Files.readAllLines(log(name), StandardCharsets.UTF_8);
            System.err.println("---- last lines of " + shown(log(name)) + " ----");
            lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(System.err::println);
            System.err.println("----");
        } catch (IOException | UncheckedIOException noTextLog) {
            // nothing logged, or a binary log: the path above says where it is
        }
    }
}
