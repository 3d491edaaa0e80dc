package io.flashsale.e2e;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code bin/flashsale} as an operator runs it (needs bash, curl, jq and openssl). */
final class Launcher {

    record Run(int exitCode, String output) {}

    private static final Path SCRIPT =
            Path.of("..", "bin", "flashsale").toAbsolutePath().normalize();

    private Launcher() {}

    /** {@code bin/flashsale audit --api API ARGS...}; output is stdout and stderr together. */
    static Run audit(URI api, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString(), "audit", "--api", api.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("bin/flashsale audit did not finish: " + output);
        }
        return new Run(process.exitValue(), output);
    }
}
