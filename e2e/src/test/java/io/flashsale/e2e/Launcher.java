package io.flashsale.e2e;

import io.flashsale.bench.Processes;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code bin/flashsale} as an operator runs it (needs bash, curl, jq and openssl), started as a
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
        return run("audit", api, args);
    }

    /** {@code bin/flashsale sale ARGS... --api API}; output is stdout and stderr together. */
    static Run sale(URI api, String... args) throws Exception {
        return run("sale", api, args);
    }

    private static Run run(String subcommand, URI api, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString(), subcommand));
        command.addAll(List.of(args));
        command.addAll(List.of("--api", api.toString()));
        String name = "flashsale-" + subcommand + "-" + RUNS.incrementAndGet();
        try (Processes processes = new Processes(LOGS, TIMEOUT)) {
            Process process = processes.start(name, command, Map.of());
            boolean finished = process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            String output = Files.readString(processes.log(name));
            if (!finished) {
                throw new AssertionError("bin/flashsale " + subcommand + " did not finish: " + output);
            }
            return new Run(process.exitValue(), output);
        }
    }
}
