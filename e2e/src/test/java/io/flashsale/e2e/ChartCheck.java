package io.flashsale.e2e;

import io.flashsale.launcher.temporal.GoTool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * deploy/helm/check: decodes rendered objects strictly into their Kubernetes API types (its
 * main.go says which). Built by {@link GoTool} into {@code .tools/helm-check-<hash of its
 * sources>}, so an edit builds it again and an unchanged one is found.
 */
final class ChartCheck {

    private final Path binary;

    private ChartCheck(Path binary) {
        this.binary = binary;
    }

    static ChartCheck locateOrBuild(Path root) throws IOException {
        Path source = root.resolve("deploy/helm/check");
        Path folder = root.resolve(".tools").resolve("helm-check-" + hash(source));
        GoTool tool = GoTool.fromSource(folder, source, List.of("."), System.err::println);
        return new ChartCheck(tool.program("check").orElseThrow(() -> Helm.cannotBuild(source.toString())));
    }

    /** Checks the objects of {@code rendered} (helm template's output): exit 0 when each decoded. */
    ToolRun check(String rendered) throws IOException, InterruptedException {
        Path input = Files.createTempFile("rendered", ".yaml");
        try {
            Files.writeString(input, rendered);
            return ToolRun.of(List.of(binary.toString()), input, Duration.ofMinutes(1));
        } finally {
            Files.delete(input);
        }
    }

    private static String hash(Path source) throws IOException {
        try (Stream<Path> files = Files.list(source)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            files.filter(file -> file.toString().matches(".*(\\.go|go\\.mod|go\\.sum)$"))
                    .sorted()
                    .forEach(file -> digest.update(read(file)));
            return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
