package io.flashsale.e2e;

import io.flashsale.launcher.Processes;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code bin/flashsale} as an operator runs it (needs bash and java), started as a
 * {@link Processes} child whose log under {@code target/e2e-logs/launcher/} holds what it printed.
 */
final class Launcher {

    record Run(int exitCode, String output) {}

    private static final Path SCRIPT =
            Path.of("..", "bin", "flashsale").toAbsolutePath().normalize();
    private static final Path LOGS = Path.of("target", "e2e-logs", "launcher");
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final AtomicInteger RUNS = new AtomicInteger();

    private Launcher() {}

    /** {@code bin/flashsale audit --api API ARGS...}; output is stdout and stderr together. */
    static Run audit(URI api, String... args) throws Exception {
        return withApi("audit", api, args);
    }

    /** {@code bin/flashsale sale ARGS... --api API}; output is stdout and stderr together. */
    static Run sale(URI api, String... args) throws Exception {
        return withApi("sale", api, args);
    }

    /**
     * {@code bin/flashsale ARGS...} with {@code environment} on top of this JVM's and {@code input}
     * on its standard input (then end of input); output is stdout and stderr together.
     */
    static Run run(Map<String, String> environment, String input, String... args) throws Exception {
        return run(TIMEOUT, environment, input, args);
    }

    /** A log name of its own: the e2e tests run in several JVMs at once, all writing into {@link #LOGS}. */
    private static String name(String command) {
        return "flashsale-" + command + "-" + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet();
    }

    /** {@link #run(Map, String, String...)} given {@code timeout} to finish (e.g. {@code up}). */
    static Run run(Duration timeout, Map<String, String> environment, String input, String... args) throws Exception {
        String name = name(args[0]);
        try (Processes processes = new Processes(LOGS, TIMEOUT)) {
            Process process = processes.start(name, command(args), environment);
            try (OutputStream stdin = process.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            } catch (IOException exitedBeforeReading) {
                // a command that reads nothing may be gone already
            }
            boolean finished = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
            String output = Files.readString(processes.log(name));
            if (!finished) {
                throw new AssertionError("bin/flashsale " + args[0] + " did not finish: " + output);
            }
            return new Run(process.exitValue(), output);
        }
    }

    /** {@code bin/flashsale ARGS...} left running (e.g. {@code logs -f}) until {@link Running#close()}. */
    static Running start(Map<String, String> environment, String... args) throws Exception {
        String name = name(args[0]);
        Processes processes = new Processes(LOGS, TIMEOUT);
        try {
            processes.start(name, command(args), environment);
            return new Running(processes, name);
        } catch (IOException | RuntimeException e) {
            processes.close();
            throw e;
        }
    }

    /** A command {@link #start} started; closing it stops the command (TERM, then KILL). */
    record Running(Processes processes, String name) implements AutoCloseable {

        /** Waits until the command has printed {@code text}. */
        void awaitOutput(String text) throws Exception {
            processes.awaitLog(name, text);
        }

        String output() throws IOException {
            return Files.readString(processes.log(name));
        }

        @Override
        public void close() {
            processes.close();
        }
    }

    private static Run withApi(String subcommand, URI api, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(subcommand));
        all.addAll(List.of(args));
        all.addAll(List.of("--api", api.toString()));
        return run(Map.of(), "", all.toArray(String[]::new));
    }

    private static List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        return command;
    }
}
