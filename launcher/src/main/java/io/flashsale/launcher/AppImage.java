package io.flashsale.launcher;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * An app's jar made quick to start, once per build: extracted, with a class-data archive recorded by
 * one training start (a third of the start time), in {@code target/app-image/<digest of the jar>/}.
 */
final class AppImage {

    /** Images of other builds not used for this long are deleted when a new one is made. */
    private static final Duration KEPT_UNUSED = Duration.ofDays(1);

    /** The extracted jar to start, and its class-data archive when training made one. */
    record Image(Path jar, Optional<Path> archive) {

        /** The JVM arguments after {@code jvmFlags}: the archive's unless {@link #recording}, then the jar (and {@code extra}). */
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
     * Whether the JVM records a flight: OpenJDK 17.0.15 crashes loading a dynamic archive's classes
     * while JFR's class-load hook is on, so such an app starts without the archive.
     */
    static boolean recording(List<String> jvmFlags, String toolOptions) {
        return Stream.concat(jvmFlags.stream(), Stream.ofNullable(toolOptions)).anyMatch(AppImage::recordsFlight);
    }

    private static boolean recordsFlight(String flag) {
        return flag.contains("-XX:StartFlightRecording") || flag.contains("-XX:FlightRecorderOptions");
    }

    private AppImage() {}

    /** The image of {@code executableJar}, extracted and trained with {@code training} first if no JVM did before. */
    static synchronized Image of(
            Path executableJar, List<String> jvmFlags, Map<String, String> training, Path log, Duration timeout)
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
                extract(executableJar, image, log, timeout);
                deleteUnused(images, image);
            }
            Path archive = image.resolve("app.jsa");
            if (!Files.exists(archive)) {
                train(jar, archive, jvmFlags, training, log, timeout);
            }
            Files.setLastModifiedTime(image, FileTime.from(Instant.now()));
            return new Image(jar, Files.exists(archive) ? Optional.of(archive) : Optional.empty());
        }
    }

    /** Extracts beside {@code image}, then moves it in place: a half extraction is never used. */
    private static void extract(Path executableJar, Path image, Path log, Duration timeout)
            throws IOException, InterruptedException {
        Path partial = image.resolveSibling(image.getFileName() + ".partial");
        Processes.deleteFolder(partial);
        String jar = executableJar.toAbsolutePath().toString();
        List<String> command = List.of(
                Processes.java(), "-Djarmode=tools", "-jar", jar, "extract", "--destination", partial.toString());
        Processes.exec(command, Map.of(), log, timeout);
        Files.move(partial, image, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void train(
            Path jar, Path archive, List<String> jvmFlags, Map<String, String> training, Path log, Duration timeout)
            throws IOException, InterruptedException {
        Path recording = archive.resolveSibling(archive.getFileName() + ".partial");
        Files.deleteIfExists(recording);
        List<String> command = new ArrayList<>(List.of(Processes.java()));
        jvmFlags.stream().filter(flag -> !recordsFlight(flag)).forEach(command::add);
        command.addAll(List.of(
                "-XX:ArchiveClassesAtExit=" + recording, "-Dspring.context.exit=onRefresh", "-jar", jar.toString()));
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
        try (DigestInputStream in =
                new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(in.getMessageDigest().digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Images of other builds unused for {@link #KEPT_UNUSED}: 190 MB each. */
    private static void deleteUnused(Path images, Path current) throws IOException {
        Instant unusedSince = Instant.now().minus(KEPT_UNUSED);
        try (DirectoryStream<Path> all = Files.newDirectoryStream(images, Files::isDirectory)) {
            for (Path image : all) {
                if (!image.equals(current)
                        && Files.getLastModifiedTime(image).toInstant().isBefore(unusedSince)) {
                    Processes.deleteFolder(image);
                }
            }
        }
    }
}
