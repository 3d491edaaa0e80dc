package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Prometheus' promtool: {@code PROMTOOL} or the first {@code promtool} on the {@code PATH}. Missing, it
 * fails the test and says how to install it (the Debian package {@code .ci/run} installs).
 */
final class Promtool {

    static final String INSTALL = "promtool not found: install Debian's prometheus package"
            + " (apt-get install --no-install-recommends prometheus, as .ci/run does), or set PROMTOOL to its path";

    /** What a run printed (stdout and stderr together) and its exit code. */
    record Run(int exitCode, String output) {}

    private Promtool() {}

    static Run run(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(executable().toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("promtool did not finish within 60 s: " + command);
        }
        return new Run(process.exitValue(), output);
    }

    private static Path executable() {
        String configured = System.getenv("PROMTOOL");
        Stream<Path> candidates = configured != null && !configured.isBlank()
                ? Stream.of(Path.of(configured))
                : Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                        .filter(directory -> !directory.isBlank())
                        .map(directory -> Path.of(directory, "promtool"));
        Optional<Path> found = candidates.filter(Files::isExecutable).findFirst();
        return found.orElseThrow(() -> new AssertionError(INSTALL));
    }
}
