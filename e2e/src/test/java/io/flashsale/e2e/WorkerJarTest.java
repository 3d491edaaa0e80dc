package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/** The fault injection the crash tests arm is test code: the worker's executable jar does not hold it. */
class WorkerJarTest {

    private static final Path TARGET =
            Path.of(System.getProperty("flashsale.root", "..")).resolve("worker/target");

    @Test
    void theWorkersJarHoldsNoFaultInjectionAndItsFaultsJarDoes() throws IOException {
        assertThat(classes(jar("worker-*-exec.jar")))
                .isNotEmpty()
                .noneMatch(name -> name.contains("io/flashsale/worker/faults/"));
        assertThat(classes(jar("worker-*-faults.jar")))
                .contains(
                        "io/flashsale/worker/faults/FaultInjectionConfiguration.class",
                        "io/flashsale/worker/faults/PauseAfterActivities.class")
                .noneMatch(name -> name.endsWith("Test.class"));
    }

    private static Path jar(String pattern) throws IOException {
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(TARGET, pattern)) {
            return jars.iterator().next();
        }
    }

    private static List<String> classes(Path jar) throws IOException {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            file.stream()
                    .map(ZipEntry::getName)
                    .filter(name -> name.endsWith(".class"))
                    .forEach(names::add);
        }
        return names;
    }
}
