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
 * Programs built from Go into a folder of {@code .tools/}: packages of a module at a version, built in
 * its folder of Go's module cache (its go.mod's {@code replace} applies; {@code go install} refuses it).
 *
 * @param module {@code module@version} whose own folder the packages are built in, or null
 * @param source a module's folder in this repository the packages are built in, or null
 */
public record GoTool(Path folder, String module, Path source, List<String> packages, Consumer<String> log) {

    private static final String JAEGER = "github.com/jaegertracing/jaeger@v1.76.0";
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(30);
    private static final Pattern MODULE_DIR = Pattern.compile("\"Dir\":\\s*\"([^\"]+)\"");

    public GoTool {
        folder = folder.toAbsolutePath().normalize();
    }

    /** {@code packages} ({@code ./cmd/x}) of {@code moduleAtVersion}, built into {@code root/.tools/NAME-VERSION}. */
    public static GoTool inModule(
            Path root, String name, String moduleAtVersion, List<String> packages, Consumer<String> log) {
        String version = moduleAtVersion.substring(moduleAtVersion.indexOf('@') + 1);
        return new GoTool(root.resolve(".tools/" + name + "-" + version), moduleAtVersion, null, packages, log);
    }

    /** {@code packages} ({@code .}, {@code ./cmd/x}) of the module in {@code source}; {@code folder} names its hash. */
    public static GoTool fromSource(Path folder, Path source, List<String> packages, Consumer<String> log) {
        return new GoTool(folder, null, source.toAbsolutePath().normalize(), packages, log);
    }

    public Path binary(String name) {
        return folder.resolve(name);
    }

    /** The binary {@code name}, every package built first when one is missing; empty, the reason logged, when not. */
    public Optional<Path> program(String name) {
        if (!built()) {
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
                if (!built() && !build(go.get())) {
                    return Optional.empty();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot build into " + folder, e);
            }
        }
        return Optional.of(binary(name)).filter(Files::isExecutable);
    }

    /** Jaeger, the tracing backend of {@code up --observe}: the file named by {@code JAEGER_BINARY}, else built. */
    public static Optional<Path> jaeger(Path root, Consumer<String> log) {
        return configured("JAEGER_BINARY").or(() -> inModule(root, "jaeger", JAEGER, List.of("./cmd/jaeger"), log)
                .program("jaeger"));
    }

    /** The file named by the environment variable {@code variable}, when set; refused unless executable. */
    public static Optional<Path> configured(String variable) {
        Optional<Path> configured = Optional.ofNullable(System.getenv(variable))
                .filter(v -> !v.isBlank())
                .map(Path::of);
        if (configured.isPresent() && !Files.isExecutable(configured.get())) {
            throw new IllegalStateException(variable + "=" + configured.get() + " is not an executable file");
        }
        return configured;
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

    private boolean built() {
        return packages.stream().map(pkg -> binary(name(pkg))).allMatch(Files::isExecutable);
    }

    /** The last element of the package path; "." is named after the module's folder. */
    private String name(String pkg) {
        Path name = Path.of(pkg).normalize().getFileName();
        return (name == null || name.toString().isEmpty() ? source.getFileName() : name).toString();
    }

    private boolean build(Path go) throws IOException {
        Path moduleDir = source;
        // downloaded in the tool's own folder: not inside whatever Go module the caller stands in
        if (moduleDir == null && run(go, folder, List.of("mod", "download", "-json", module), "go mod download")) {
            Matcher dir = MODULE_DIR.matcher(Files.readString(buildLog()));
            moduleDir = dir.find() ? Path.of(dir.group(1)) : null;
            if (moduleDir == null) {
                log.accept("go mod download named no folder for " + module + "; see " + buildLog());
            }
        }
        if (moduleDir == null) {
            return false;
        }
        for (String pkg : packages) {
            if (!run(go, moduleDir, List.of("build", "-o", binary(name(pkg)).toString(), pkg), pkg)) {
                return false;
            }
        }
        return true;
    }

    /** Runs {@code go -C directory arguments}, its output alone in build.log. */
    private boolean run(Path go, Path directory, List<String> arguments, String step) throws IOException {
        String what = (module != null ? module : source.toString()) + " " + step;
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
        }
        return exit == 0;
    }

    private Path buildLog() {
        return folder.resolve("build.log");
    }
}
