package io.flashsale.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Prometheus' promtool: {@code PROMTOOL} or the first {@code promtool} on the {@code PATH}. Missing, it
 * fails the test and says how to install it (the Debian package {@code .ci/run} installs).
 */
final class Promtool {

    static final String INSTALL = "promtool not found: install Debian's prometheus package"
            + " (apt-get install --no-install-recommends prometheus, as .ci/run does), or set PROMTOOL to its path";

    private Promtool() {}

    static ToolRun run(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(executable().toString());
        command.addAll(List.of(arguments));
        return ToolRun.of(command, Duration.ofSeconds(60));
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
