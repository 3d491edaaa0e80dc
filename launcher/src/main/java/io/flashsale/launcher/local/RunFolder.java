package io.flashsale.launcher.local;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.Launch;
import io.flashsale.launcher.Processes;
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

/**
 * The processes of {@code bin/flashsale up} across invocations: each detached (it outlives this JVM
 * and the terminal), its pid in {@code <run>/NAME.pid}, its output in {@code <run>/logs/NAME.log}; a
 * pid file of an earlier run counts only while {@code /proc/PID/cmdline} is still the component's.
 *
 * @param root the checkout, which messages show paths relative to
 * @param path the run folder
 * @param environment the environment of {@code up}'s apps, for what starts through {@link Launch}
 */
record RunFolder(Path root, Path path, Duration stopTimeout, Map<String, String> environment) implements Launch {

    @Override
    public void start(String name, List<String> command) throws IOException {
        start(Component.named(name, path).orElseThrow(), command, environment);
    }

    /**
     * Whether the pid last recorded for {@code name} is alive. Not whether its command line is the
     * component's: between the execs of a start (setsid, nohup, sh, nice, the program) that reads
     * empty for a moment.
     */
    @Override
    public boolean alive(String name) {
        return Component.named(name, path)
                .flatMap(this::recorded)
                .flatMap(ProcessHandle::of)
                .filter(ProcessHandle::isAlive)
                .isPresent();
    }

    Path log(Component component) {
        return path.resolve("logs").resolve(component.process() + ".log");
    }

    Path pidFile(Component component) {
        return path.resolve(component.process() + ".pid");
    }

    /** {@code path} relative to the checkout when inside it ({@code .run/logs/api.log}), else as it is. */
    String shown(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        return absolute.startsWith(root) ? root.relativize(absolute).toString() : absolute.toString();
    }

    /** The pid of the component's process, when its pid file names a live process of it. */
    Optional<Long> pid(Component component) {
        return running(component).map(Running::pid);
    }

    /** Whether the component runs, saying so when it does. */
    boolean alreadyRunning(Component component) {
        Optional<Long> running = pid(component);
        running.ifPresent(pid -> System.out.println(component.process() + ": already running (pid " + pid + ")"));
        return running.isPresent();
    }

    /** The command line (arguments joined by spaces) of the component's process, when it runs. */
    Optional<String> commandLine(Component component) {
        return running(component).map(Running::commandLine);
    }

    private record Running(long pid, String commandLine) {}

    private Optional<Running> running(Component component) {
        return recorded(component).flatMap(pid -> {
            try {
                String commandLine = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"))
                        .replace('\0', ' ');
                return component.runs(commandLine, path)
                        ? Optional.of(new Running(pid, commandLine))
                        : Optional.empty();
            } catch (IOException gone) {
                return Optional.empty();
            }
        });
    }

    /** The pid in the component's pid file, whatever process it names now. */
    private Optional<Long> recorded(Component component) {
        try {
            return Optional.of(
                    Long.parseLong(Files.readString(pidFile(component)).trim()));
        } catch (IOException | NumberFormatException none) {
            return Optional.empty();
        }
    }

    /** The local worker that polls as build {@code buildId}: up's worker or one 'worker start' started. */
    Optional<Component> workerOf(String buildId) {
        Component started = Component.workerOfBuild(buildId);
        if (pid(started).isPresent()) {
            return Optional.of(started);
        }
        return commandLine(Component.WORKER)
                .filter(line -> Component.buildOf(line).equals(Optional.of(buildId)))
                .map(line -> Component.WORKER);
    }

    /**
     * Starts {@code command} detached and records its pid: in a session of its own (setsid: no Ctrl-C
     * at the terminal reaches it; not a group leader, so setsid keeps the pid), deaf to hangups (nohup).
     */
    long start(Component component, List<String> command, Map<String, String> environment) throws IOException {
        Files.createDirectories(log(component).getParent());
        ProcessBuilder builder = new ProcessBuilder(detached(command))
                .redirectErrorStream(true)
                .redirectOutput(log(component).toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().putAll(environment);
        long pid = builder.start().pid();
        Files.writeString(pidFile(component), pid + "\n");
        System.out.println("started " + component.process() + " (pid " + pid + ", log " + shown(log(component)) + ")");
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
    void stop(Component component) throws IOException {
        Optional<ProcessHandle> process = pid(component).flatMap(ProcessHandle::of);
        if (process.isEmpty()) {
            if (Files.deleteIfExists(pidFile(component))) {
                System.out.println(component.process() + ": not running (removing stale pid file)");
            }
            return;
        }
        long pid = process.get().pid();
        if (Processes.stop(process.get(), stopTimeout)) {
            System.out.println(component.process() + " (pid " + pid + ") still running after " + stopTimeout.toSeconds()
                    + "s, sent KILL");
        }
        Files.deleteIfExists(pidFile(component));
        System.out.println("stopped " + component.process() + " (pid " + pid + ")");
    }

    /** Waits for {@code ready} while the component's process is {@link #alive}; false, its log's tail on stderr, when it exits or times out. */
    boolean await(Component component, Duration timeout, Await.Check ready) throws InterruptedException {
        try {
            Await.until(component.process(), timeout, () -> alive(component.process()), ready);
            return true;
        } catch (IllegalStateException failed) {
            return failed(failed.getMessage(), component);
        }
    }

    private boolean failed(String message, Component component) {
        System.err.println("flashsale: " + message);
        try {
            List<String> lines = Files.readAllLines(log(component), StandardCharsets.UTF_8);
            System.err.println("---- last lines of " + shown(log(component)) + " ----");
            lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(System.err::println);
            System.err.println("----");
        } catch (IOException noLog) {
            // nothing logged
        } catch (UncheckedIOException notText) {
            // a binary log: the path above says where it is
        }
        return false;
    }
}
