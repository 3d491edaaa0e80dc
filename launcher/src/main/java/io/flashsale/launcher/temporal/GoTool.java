package io.flashsale.launcher.temporal;

import io.flashsale.launcher.Processes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
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
 */
public final class GoTool {

    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(30);
    private static final Pattern MODULE_DIR = Pattern.compile("\"Dir\":\\s*\"([^\"]+)\"");

    private final Path folder;
    private final List<String> packages;
    private final Consumer<String> log;
    /** {@code module@version} whose own folder the packages are built in, or null. */
    private final String module;
    /** A module's folder in this repository the packages are built in, or null. */
    private final Path source;

    private GoTool(Path folder, String module, Path source, List<String> packages, Consumer<String> log) {
        this.folder = folder.toAbsolutePath().normalize();
        this.module = module;
        this.source = source;
        this.packages = List.copyOf(packages);
        this.log = log;
    }

    /** Each of {@code packages} ({@code ./cmd/x}) of {@code moduleAtVersion}, built into {@code folder}. */
    public static GoTool inModule(Path folder, String moduleAtVersion, List<String> packages, Consumer<String> log) {
        return new GoTool(folder, moduleAtVersion, null, packages, log);
    }

    /**
     * Each of {@code packages} ({@code .} or {@code ./cmd/x}) of the module in {@code source}; the
     * folder should name the sources' version (a hash of them), as a built binary is not built again.
     */
    public static GoTool fromSource(Path folder, Path source, List<String> packages, Consumer<String> log) {
        return new GoTool(folder, null, source.toAbsolutePath().normalize(), packages, log);
    }

    /** {@code folder/name}. */
    public Path binary(String name) {
        return folder.resolve(name);
    }

    /** Every binary of {@code names} in the folder, built first when one is missing; empty when none can be. */
    public Optional<Path> locateOrBuild(String... names) {
        if (built(names)) {
            return Optional.of(folder);
        }
        Optional<Path> go = go();
        if (go.isEmpty()) {
            log.accept("no 'go' to build " + String.join(" ", packages));
            return Optional.empty();
        }
        try {
            Files.createDirectories(folder);
            try (FileChannel lockFile = FileChannel.open(
                            folder.resolve(".build.lock"),
                            java.nio.file.StandardOpenOption.CREATE,
                            java.nio.file.StandardOpenOption.WRITE);
                    FileLock ignored = lockFile.lock()) {
                return built(names) || build(go.get()) && built(names) ? Optional.of(folder) : Optional.empty();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build into " + folder, e);
        }
    }

    private boolean built(String... names) {
        return Stream.of(names).map(this::binary).allMatch(Files::isExecutable);
    }

    /** The file named by the environment variable {@code variable}, when set; it must be executable. */
    public static Optional<Path> configured(String variable) {
        String configured = System.getenv(variable);
        if (configured == null || configured.isBlank()) {
            return Optional.empty();
        }
        Path binary = Path.of(configured);
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(variable + "=" + configured + " is not an executable file");
        }
        return Optional.of(binary);
    }

    /** The executable {@code name} in a folder of the PATH, else in one of {@code moreFolders}. */
    public static Optional<Path> onPath(String name, String... moreFolders) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.concat(Stream.of(path.split(java.io.File.pathSeparator)), Stream.of(moreFolders))
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, name))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private static Optional<Path> go() {
        return Optional.ofNullable(System.getenv("GOROOT"))
                .map(root -> Path.of(root, "bin", "go"))
                .filter(Files::isExecutable)
                // Go's own installer puts it there without touching the PATH of non-login shells
                .or(() -> onPath("go", "/usr/local/go/bin"));
    }

    private boolean build(Path go) {
        Path moduleDir = source;
        if (moduleDir == null) {
            // in the tool's own folder: not inside whatever Go module the caller happens to stand in
            if (!run(go, folder, List.of("mod", "download", "-json", module), "go mod download " + module)) {
                return false;
            }
            Matcher dir;
            try {
                dir = MODULE_DIR.matcher(Files.readString(buildLog()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (!dir.find()) {
                log.accept("go mod download named no folder for " + module + "; see " + buildLog());
                return false;
            }
            moduleDir = Path.of(dir.group(1));
        }
        Path in = moduleDir;
        return packages.stream()
                .allMatch(pkg -> run(
                        go,
                        in,
                        List.of("build", "-o", folder.resolve(binaryName(pkg)).toString(), pkg),
                        (module != null ? module : source.toString()) + " " + pkg));
    }

    /** The last element of the package path; {@code .} is named after the module's folder. */
    private Path binaryName(String pkg) {
        Path name = Path.of(pkg).normalize().getFileName();
        return name == null || name.toString().isEmpty() ? source.getFileName() : name;
    }

    /** Runs {@code go -C directory arguments}, its output alone in build.log. */
    private boolean run(Path go, Path directory, List<String> arguments, String what) {
        log.accept("building: " + what + " (minutes the first time, seconds after)");
        List<String> command = new ArrayList<>(List.of(go.toString(), "-C", directory.toString()));
        command.addAll(arguments);
        try {
            Files.deleteIfExists(buildLog());
            // the module's own go.mod decides, not a go.work of the caller's environment
            int exit = Processes.exec(command, Map.of("GOWORK", "off"), buildLog(), BUILD_TIMEOUT);
            if (exit != 0) {
                log.accept(what + (exit < 0 ? " did not finish within " + BUILD_TIMEOUT : " failed (exit " + exit + ")")
                        + ":\n" + tail(buildLog()) + "\n(full output: " + buildLog() + ")");
                return false;
            }
            log.accept("built " + what + " into " + folder);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + go, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Path buildLog() {
        return folder.resolve("build.log");
    }

    private static String tail(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
}
