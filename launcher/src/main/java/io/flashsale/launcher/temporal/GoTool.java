package io.flashsale.launcher.temporal;

import io.flashsale.launcher.Processes;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Programs built from Go into one folder of the project's git-ignored {@code .tools/}: packages of
 * a module at a version, downloaded into Go's module cache and built in its folder (where its
 * go.mod applies, {@code replace} directives included, which {@code go install} refuses), or of a
 * module of this repository. Go's caches stay in their default places, so a rebuild on the same
 * machine takes seconds; builds by several processes at once take turns through a file lock.
 *
 * @param module {@code module@version} whose own folder the packages are built in, or null
 * @param source a module's folder in this repository the packages are built in, or null
 */
public record GoTool(Path folder, String module, Path source, List<String> packages, Consumer<String> log) {

    private static final String JAEGER = "github.com/jaegertracing/jaeger@v1.76.0";
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(30);
    private static final Pattern MODULE_DIR = Pattern.compile("\"Dir\":\\s*\"([^\"]+)\"");

    /** Each of {@code packages} ({@code ./cmd/x}) of {@code moduleAtVersion}, built into {@code root/.tools/NAME-VERSION}. */
    public static GoTool inModule(
            Path root, String name, String moduleAtVersion, List<String> packages, Consumer<String> log) {
        String version = moduleAtVersion.substring(moduleAtVersion.indexOf('@') + 1);
        Path folder = root.resolve(".tools").resolve(name + "-" + version);
        return new GoTool(folder.toAbsolutePath().normalize(), moduleAtVersion, null, packages, log);
    }

    /**
     * Each of {@code packages} ({@code .} or {@code ./cmd/x}) of the module in {@code source}; the
     * folder should name the sources' version (a hash of them), as a built binary is not built again.
     */
    public static GoTool fromSource(Path folder, Path source, List<String> packages, Consumer<String> log) {
        return new GoTool(
                folder.toAbsolutePath().normalize(),
                null,
                source.toAbsolutePath().normalize(),
                packages,
                log);
    }

    /** {@code folder/name}. */
    public Path binary(String name) {
        return folder.resolve(name);
    }

    /** The binary {@code name}, built first when missing; empty when it cannot be. */
    public Optional<Path> program(String name) {
        return locateOrBuild(name).map(folder -> binary(name));
    }

    /** Every binary of {@code names} in the folder, built first when one is missing; empty when none can be. */
    public Optional<Path> locateOrBuild(String... names) {
        if (built(names)) {
            return Optional.of(folder);
        }
        Optional<Path> go = Optional.ofNullable(System.getenv("GOROOT"))
                .map(root -> Path.of(root, "bin", "go"))
                .filter(Files::isExecutable)
                // Go's own installer puts it there without touching the PATH of non-login shells
                .or(() -> onPath("go", "/usr/local/go/bin"));
        if (go.isEmpty()) {
            log.accept("no 'go' to build " + String.join(" ", packages));
            return Optional.empty();
        }
        try (FileChannel lockFile = FileChannel.open(
                        Files.createDirectories(folder).resolve(".build.lock"),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock ignored = lockFile.lock()) {
            return built(names) || build(go.get()) && built(names) ? Optional.of(folder) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build into " + folder, e);
        }
    }

    /**
     * Jaeger, the tracing backend of {@code up --observe} and of the tracing test (configuration:
     * deploy/jaeger/config.yaml): the file named by {@code JAEGER_BINARY}, else the one built into
     * {@code .tools/} (its go.mod has a {@code replace} that {@code go install} refuses); empty, the
     * reason logged, when it cannot be built.
     */
    public static Optional<Path> jaeger(Path root, Consumer<String> log) {
        return configured("JAEGER_BINARY").or(() -> inModule(root, "jaeger", JAEGER, List.of("./cmd/jaeger"), log)
                .program("jaeger"));
    }

    /** The file named by the environment variable {@code variable}, when set; it must be executable. */
    public static Optional<Path> configured(String variable) {
        String configured = System.getenv(variable);
        if (configured == null || configured.isBlank()) {
            return Optional.empty();
        }
        if (!Files.isExecutable(Path.of(configured))) {
            throw new IllegalStateException(variable + "=" + configured + " is not an executable file");
        }
        return Optional.of(Path.of(configured));
    }

    /** The executable {@code name} in a folder of the PATH, else in one of {@code moreFolders}. */
    public static Optional<Path> onPath(String name, String... moreFolders) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.concat(Stream.of(path.split(File.pathSeparator)), Stream.of(moreFolders))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private boolean built(String... names) {
        return Stream.of(names).map(this::binary).allMatch(Files::isExecutable);
    }

    private boolean build(Path go) throws IOException {
        Path moduleDir = source;
        if (moduleDir == null) {
            // in the tool's own folder: not inside whatever Go module the caller happens to stand in
            if (!run(go, folder, List.of("mod", "download", "-json", module), "go mod download " + module)) {
                return false;
            }
            Matcher dir = MODULE_DIR.matcher(Files.readString(buildLog()));
            if (!dir.find()) {
                log.accept("go mod download named no folder for " + module + "; see " + buildLog());
                return false;
            }
            moduleDir = Path.of(dir.group(1));
        }
        for (String pkg : packages) {
            // the last element of the package path; "." is named after the module's folder
            Path name = Path.of(pkg).normalize().getFileName();
            name = name == null || name.toString().isEmpty() ? source.getFileName() : name;
            String what = (module != null ? module : source.toString()) + " " + pkg;
            if (!run(
                    go,
                    moduleDir,
                    List.of("build", "-o", binary(name.toString()).toString(), pkg),
                    what)) {
                return false;
            }
        }
        return true;
    }

    /** Runs {@code go -C directory arguments}, its output alone in build.log. */
    private boolean run(Path go, Path directory, List<String> arguments, String what) throws IOException {
        log.accept("building: " + what + " (minutes the first time, seconds after)");
        List<String> command = new ArrayList<>(List.of(go.toString(), "-C", directory.toString()));
        command.addAll(arguments);
        Files.deleteIfExists(buildLog());
        int exit;
        try {
            // the module's own go.mod decides, not a go.work of the caller's environment
            exit = Processes.exec(command, Map.of("GOWORK", "off"), buildLog(), BUILD_TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (exit != 0) {
            List<String> lines = Files.readAllLines(buildLog());
            log.accept(what + (exit < 0 ? " did not finish within " + BUILD_TIMEOUT : " failed (exit " + exit + ")")
                    + ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()))
                    + "\n(full output: " + buildLog() + ")");
            return false;
        }
        log.accept("built " + what + " into " + folder);
        return true;
    }

    private Path buildLog() {
        return folder.resolve("build.log");
    }
}
