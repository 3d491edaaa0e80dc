package io.flashsale.launcher;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * An app's executable jar made quick to start, once per build: extracted with Spring Boot's jar
 * tools and given a class-data-sharing archive (CDS) recorded by one training start that stops
 * right after the context refresh ({@code -Dspring.context.exit=onRefresh}: no port, no worker
 * polls, no relay). Measured on this project's api and worker (C1 only, an idle 2-core box): the
 * api reports started in 5 s instead of 13-15 s on 7.5 s of CPU instead of 16-19 s, the worker in
 * 3.5 s instead of 10 s on 5.4 s instead of 14 s; the end-to-end tests start some 40 apps.
 *
 * <p>An image lives in {@code <module>/target/app-image/<digest of the jar>/}, so a stack keeps
 * starting the jar it began with when a build replaces it, and both test JVMs of the e2e module
 * share it: a file lock makes the first one build it and the other wait. Training needs what the
 * context's beans reach at start (MySQL for Flyway): it runs with the stack's own environment. When
 * it fails the apps start without the archive, slower but the same (its log says why).
 */
final class AppImage {

    /** Images of other builds not used for this long are deleted when a new one is made. */
    private static final Duration KEPT_UNUSED = Duration.ofDays(1);

    /** The extracted jar to start, and its class-data archive when training made one. */
    record Image(Path jar, Optional<Path> archive) {

        /**
         * The JVM arguments that start it after {@code jvmFlags}: the archive's, unless a flight
         * recording is on (see {@link #recording}), then {@code -jar}; with {@code extra} (a jar of
         * the tests' own, e.g. the worker's fault injection) on the class path after the app's, its
         * main class named instead.
         */
        List<String> arguments(List<String> jvmFlags, Optional<Path> extra) throws IOException {
            List<String> arguments = new ArrayList<>();
            if (!recording(jvmFlags, System.getenv("JAVA_TOOL_OPTIONS"))) {
                archive.ifPresent(jsa -> arguments.add("-XX:SharedArchiveFile=" + jsa));
            }
            if (extra.isEmpty()) {
                arguments.addAll(List.of("-jar", jar.toString()));
                return arguments;
            }
            try (JarFile app = new JarFile(jar.toFile())) {
                String main = app.getManifest().getMainAttributes().getValue("Main-Class");
                arguments.addAll(List.of("-cp", jar + File.pathSeparator + extra.get(), main));
            }
            return arguments;
        }
    }

    /**
     * Whether the JVM records a flight ({@code bin/flashsale bench --profile}, or JFR in {@code
     * JAVA_TOOL_OPTIONS}): OpenJDK 17.0.15 crashes (SIGSEGV in {@code
     * KlassFactory::check_shared_class_file_load_hook}) loading a dynamic archive's classes while
     * JFR's class-load hook is on, so a recorded app starts without the archive, and training leaves
     * the recording flags out.
     */
    static boolean recording(List<String> jvmFlags, String toolOptions) {
        return Stream.concat(jvmFlags.stream(), Stream.ofNullable(toolOptions)).anyMatch(AppImage::recordsFlight);
    }

    private static boolean recordsFlight(String flag) {
        return flag.contains("-XX:StartFlightRecording") || flag.contains("-XX:FlightRecorderOptions");
    }

    private AppImage() {}

    /**
     * The image of {@code executableJar}, extracted and trained first if no JVM did before;
     * training starts it with {@code jvmFlags} and {@code environment} (its HTTP port variable
     * {@code portVariable} set to 0), logging to {@code trainingLog}, for at most {@code timeout}.
     */
    static synchronized Image of(
            Path executableJar,
            List<String> jvmFlags,
            Map<String, String> environment,
            String portVariable,
            Path trainingLog,
            Duration timeout)
            throws IOException, InterruptedException {
        Path images = executableJar.toAbsolutePath().getParent().resolve("app-image");
        Path image = images.resolve(digest(executableJar));
        Files.createDirectories(images);
        try (FileChannel lockFile = FileChannel.open(
                        images.resolve(image.getFileName() + ".lock"),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock ignored = lockFile.lock()) {
            Path jar = image.resolve(executableJar.getFileName());
            if (!Files.exists(jar)) {
                extract(executableJar, image, trainingLog, timeout);
                deleteUnused(images, image);
            }
            Path archive = image.resolve("app.jsa");
            if (!Files.exists(archive)) {
                train(jar, archive, jvmFlags, environment, portVariable, trainingLog, timeout);
            }
            Files.setLastModifiedTime(image, FileTime.from(Instant.now()));
            return new Image(jar, Files.exists(archive) ? Optional.of(archive) : Optional.empty());
        }
    }

    /** Extracts into a folder beside {@code image}, then moves it in place: a half extraction is never used. */
    private static void extract(Path executableJar, Path image, Path log, Duration timeout)
            throws IOException, InterruptedException {
        Path partial = image.resolveSibling(image.getFileName() + ".partial");
        deleteTree(partial);
        Processes.exec(
                List.of(
                        Processes.java(),
                        "-Djarmode=tools",
                        "-jar",
                        executableJar.toAbsolutePath().toString(),
                        "extract",
                        "--destination",
                        partial.toString()),
                Map.of(),
                log,
                timeout);
        Files.move(partial, image, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void train(
            Path jar,
            Path archive,
            List<String> jvmFlags,
            Map<String, String> environment,
            String portVariable,
            Path log,
            Duration timeout)
            throws IOException, InterruptedException {
        Path recording = archive.resolveSibling(archive.getFileName() + ".partial");
        Files.deleteIfExists(recording);
        List<String> command = new ArrayList<>(List.of(Processes.java()));
        jvmFlags.stream().filter(flag -> !recordsFlight(flag)).forEach(command::add);
        command.addAll(List.of(
                "-XX:ArchiveClassesAtExit=" + recording, "-Dspring.context.exit=onRefresh", "-jar", jar.toString()));
        Map<String, String> training = new HashMap<>(environment);
        training.put(portVariable, "0");
        int exit = Processes.exec(command, training, log, timeout);
        if (exit == 0 && Files.exists(recording)) {
            Files.move(recording, archive, StandardCopyOption.ATOMIC_MOVE);
        } else {
            Files.deleteIfExists(recording);
            System.err.printf(
                    "no class-data archive for %s (training exited %d, see %s): its processes start without one%n",
                    jar.getFileName(), exit, log);
        }
    }

    private static String digest(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int read; (read = in.read(buffer)) > 0; ) {
                sha256.update(buffer, 0, read);
            }
            return HexFormat.of().formatHex(sha256.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Images of older builds, unused for {@link #KEPT_UNUSED}: 190 MB each, one per build otherwise. */
    private static void deleteUnused(Path images, Path current) throws IOException {
        Instant unusedSince = Instant.now().minus(KEPT_UNUSED);
        try (DirectoryStream<Path> all = Files.newDirectoryStream(images, Files::isDirectory)) {
            for (Path image : all) {
                if (!image.equals(current)
                        && Files.getLastModifiedTime(image).toInstant().isBefore(unusedSince)) {
                    deleteTree(image);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
