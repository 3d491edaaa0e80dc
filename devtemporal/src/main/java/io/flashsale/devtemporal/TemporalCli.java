package io.flashsale.devtemporal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The Temporal CLI, whose {@code temporal server start-dev} is the real Temporal server (SQLite
 * persistence, Web UI) for development, tests and the benchmark. Found, in this order: the file
 * named by {@code TEMPORAL_CLI}; the one built earlier into the project's git-ignored {@code
 * .tools/}; {@code temporal} on the {@code PATH}; else built there with {@code go install} from its
 * Go module (Go's module and build caches stay in their default places, so a rebuild on the same
 * machine takes seconds). Builds of several processes at once take turns through a file lock.
 */
public final class TemporalCli {

    /** v1.6.0 and later carry a go.mod {@code replace} that {@code go install} refuses. */
    public static final String MODULE = "github.com/temporalio/cli/cmd/temporal@v1.5.1";

    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(20);

    private final Path projectRoot;
    private final Consumer<String> log;

    public TemporalCli(Path projectRoot, Consumer<String> log) {
        this.projectRoot = projectRoot.toAbsolutePath().normalize();
        this.log = log;
    }

    /** The CLI binary, built when needed; empty (with the reason logged) when there is none. */
    public Optional<Path> locateOrBuild() {
        Optional<Path> found = configured().or(this::built).or(TemporalCli::onPath);
        return found.isPresent() ? found : build();
    }

    private Optional<Path> configured() {
        String configured = System.getenv("TEMPORAL_CLI");
        if (configured == null || configured.isBlank()) {
            return Optional.empty();
        }
        Path binary = Path.of(configured);
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("TEMPORAL_CLI=" + configured + " is not an executable file");
        }
        return Optional.of(binary);
    }

    private Optional<Path> built() {
        return Optional.of(binary()).filter(Files::isExecutable);
    }

    private static Optional<Path> onPath() {
        return executable("temporal");
    }

    /** The executable {@code name} in a folder of the PATH, else in one of {@code moreFolders}. */
    private static Optional<Path> executable(String name, String... moreFolders) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.concat(Stream.of(path.split(java.io.File.pathSeparator)), Stream.of(moreFolders))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** Where {@link #build()} puts it: {@code .tools/temporal-cli-<version>/temporal}. */
    Path binary() {
        String version = MODULE.substring(MODULE.indexOf('@') + 1);
        return projectRoot.resolve(".tools").resolve("temporal-cli-" + version).resolve("temporal");
    }

    private Optional<Path> build() {
        Optional<Path> go = Optional.ofNullable(System.getenv("GOROOT"))
                .map(root -> Path.of(root, "bin", "go"))
                .filter(Files::isExecutable)
                .or(TemporalCli::goOnPath);
        if (go.isEmpty()) {
            log.accept("no Temporal CLI: neither TEMPORAL_CLI, 'temporal' on the PATH, nor 'go' to build " + MODULE);
            return Optional.empty();
        }
        try {
            Files.createDirectories(binary().getParent());
            try (FileChannel lockFile = FileChannel.open(
                            binary().resolveSibling(".build.lock"),
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE);
                    FileLock ignored = lockFile.lock()) {
                return built().or(() -> goInstall(go.get()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the Temporal CLI into " + binary().getParent(), e);
        }
    }

    private static Optional<Path> goOnPath() {
        // Go's own installer puts it there without touching the PATH of non-login shells
        return executable("go", "/usr/local/go/bin");
    }

    private Optional<Path> goInstall(Path go) {
        log.accept("building the Temporal CLI: go install " + MODULE + " (minutes the first time, seconds after)");
        Path output = binary().resolveSibling("build.log");
        ProcessBuilder builder = new ProcessBuilder(List.of(go.toString(), "install", MODULE))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("GOBIN", binary().getParent().toAbsolutePath().toString());
        try {
            Process process = builder.start();
            if (!process.waitFor(BUILD_TIMEOUT.toMinutes(), TimeUnit.MINUTES)) {
                process.destroyForcibly();
                log.accept("go install did not finish within " + BUILD_TIMEOUT + "; see " + output);
                return Optional.empty();
            }
            if (process.exitValue() != 0) {
                log.accept("go install " + MODULE + " failed (exit " + process.exitValue() + "):\n" + tail(output)
                        + "\n(full output: " + output + ")");
                return Optional.empty();
            }
            log.accept("built " + binary());
            return built();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + go, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static String tail(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
}
