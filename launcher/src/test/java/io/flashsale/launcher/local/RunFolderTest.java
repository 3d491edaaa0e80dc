package io.flashsale.launcher.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.FlashSaleStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The detached processes of {@code up}: their scheduling group, and how a start is awaited. */
class RunFolderTest {

    private static final Path OWN_GROUP = Path.of("/proc/self/autogroup");

    @Test
    void aNicedProcessStartedDetachedHasItsOwnSchedulingGroupAtItsNiceness(@TempDir Path root) throws Exception {
        assumeTrue(Files.exists(OWN_GROUP), "a kernel with scheduling autogroups");
        RunFolder folder = new RunFolder(root, root.resolve(".run"), Duration.ofSeconds(5), Map.of());
        String own = Files.readString(OWN_GROUP).strip();

        assertThat(groupOf(folder, 7)).endsWith(" nice 7").isNotEqualTo(own);
        assertThat(groupOf(folder, 0)).endsWith(" nice 0").isNotEqualTo(own);
        assertThat(Files.readString(OWN_GROUP).strip())
                .as("this JVM's own group")
                .isEqualTo(own);
    }

    /**
     * A start is awaited by its pid, not by its command line, which reads empty between the execs of
     * the start ({@code sleep} here stands in for a command line that is not yet the component's).
     */
    @Test
    void aStartIsAwaitedWhileItsPidLivesWhateverItsCommandLineReads(@TempDir Path root) throws Exception {
        RunFolder folder = new RunFolder(root, root.resolve(".run"), Duration.ofSeconds(5), Map.of());
        ProcessHandle process = ProcessHandle.of(folder.start(Component.WORKER, List.of("sleep", "60"), Map.of()))
                .orElseThrow();
        try {
            long readyAt = System.nanoTime() + Duration.ofMillis(600).toNanos();

            assertThat(folder.await(Component.WORKER, Duration.ofSeconds(10), () -> System.nanoTime() > readyAt))
                    .isTrue();
            process.destroyForcibly();
            process.onExit().join();
            assertThat(folder.await(Component.WORKER, Duration.ofSeconds(10), () -> false))
                    .as("an exited start")
                    .isFalse();
        } finally {
            process.destroyForcibly();
        }
    }

    /** The autogroup line of a {@code sleep} started detached at {@code niceness}, read once it has exec'ed. */
    private static String groupOf(RunFolder folder, int niceness) throws Exception {
        List<String> command = new ArrayList<>(FlashSaleStack.niced(niceness));
        command.addAll(List.of("sleep", "60"));
        long pid = folder.start(Component.TEMPORAL, command, Map.of());
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
        try {
            Path cmdline = Path.of("/proc/" + pid + "/cmdline");
            Await.until(
                    "sleep to exec",
                    Duration.ofSeconds(10),
                    Duration.ofMillis(20),
                    () -> Files.readString(cmdline),
                    line -> line.startsWith("sleep"));
            return Files.readString(Path.of("/proc/" + pid + "/autogroup")).strip();
        } finally {
            process.destroyForcibly();
            process.onExit().join();
        }
    }
}
