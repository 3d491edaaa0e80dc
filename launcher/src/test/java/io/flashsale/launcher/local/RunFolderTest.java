package io.flashsale.launcher.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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

/**
 * The detached processes of {@code up}: a pid file counts only while its pid runs that process's
 * command, never another process that got the pid; their scheduling group; how a start is awaited.
 */
class RunFolderTest {

    private static final Path OWN_GROUP = Path.of("/proc/self/autogroup");
    private static final RunFolder CHECKOUT = new RunFolder(Path.of("/checkout"), Path.of("/checkout/.run"), Map.of());

    @Test
    void aPidFileCountsOnlyWhileItsPidRunsTheRecordedCommand(@TempDir Path root) throws Exception {
        RunFolder folder = folder(root.resolve(".run"));
        Process sleep = folder.start("api", List.of("sleep", "60"), Map.of());
        try {
            Await.until(
                    "sleep to exec",
                    Duration.ofSeconds(10),
                    Duration.ofMillis(20),
                    () -> folder.pid("api"),
                    pid -> pid.isPresent());

            assertThat(folder.pid("api")).contains(sleep.pid());
            Files.writeString(folder.pidFile("worker"), sleep.pid() + "\nsleep\0" + "61\n");
            assertThat(folder.pid("worker")).as("another command on the pid").isEmpty();
            Files.writeString(folder.pidFile("worker"), ProcessHandle.current().pid() + "\nsleep\0" + "60\n");
            assertThat(folder.pid("worker"))
                    .as("the pid reused by another process")
                    .isEmpty();
            Files.writeString(folder.pidFile("worker"), sleep.pid() + "\n");
            assertThat(folder.pid("worker")).as("a pid file without a command").isEmpty();
        } finally {
            sleep.destroyForcibly();
            sleep.onExit().join();
        }
        assertThat(folder.pid("api")).as("an exited process").isEmpty();
        assertThat(RunFolder.app(RunFolder.workerOfBuild("b"))).isEqualTo(FlashSaleStack.App.WORKER);
    }

    @Test
    void findsTheWorkersOfOtherBuildsByTheirPidFilesAndStopsThemWithTheWorker(@TempDir Path run) throws Exception {
        Files.writeString(run.resolve("worker-b.pid"), "1\n");

        assertThat(folder(run).names()).containsSubsequence("api", "worker-b", "worker", "temporal");
    }

    @Test
    void keepsTheLogOfAStoppedBuildReadable(@TempDir Path run) throws Exception {
        Files.createDirectories(run.resolve("logs"));
        Files.writeString(run.resolve("logs").resolve("worker-a.log"), "stopped\n");

        assertThat(folder(run).names()).contains("worker-a");
    }

    @Test
    void knowsEachClusterNode() {
        assertThat(CHECKOUT.names()).contains("temporal-history-1", "temporal-history-2", "temporal-frontend");
    }

    @Test
    void aNicedProcessStartedDetachedHasItsOwnSchedulingGroupAtItsNiceness(@TempDir Path root) throws Exception {
        assumeTrue(Files.exists(OWN_GROUP), "a kernel with scheduling autogroups");
        RunFolder folder = folder(root.resolve(".run"));
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
        RunFolder folder = folder(root.resolve(".run"));
        ProcessHandle process =
                folder.start("worker", List.of("sleep", "60"), Map.of()).toHandle();
        try {
            long readyAt = System.nanoTime() + Duration.ofMillis(600).toNanos();

            assertThatCode(() -> folder.await("worker", Duration.ofSeconds(10), () -> System.nanoTime() > readyAt))
                    .doesNotThrowAnyException();
            process.destroyForcibly();
            process.onExit().join();
            assertThatThrownBy(() -> folder.await("worker", Duration.ofSeconds(10), () -> false))
                    .as("an exited start")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("exited while starting: worker")
                    .hasMessageEndingWith("(log .run/logs/worker.log); 'bin/flashsale down' stops what still runs");
        } finally {
            process.destroyForcibly();
        }
    }

    /** A worker of another build that does not start is stopped by 'worker stop', not by 'down' (up's whole system). */
    @Test
    void aBuildsWorkerThatFailsToStartIsStoppedByWorkerStop(@TempDir Path root) throws Exception {
        RunFolder folder = folder(root.resolve(".run"));
        String worker = RunFolder.workerOfBuild("b2");
        folder.start(worker, List.of("true"), Map.of()).onExit().join();

        assertThatThrownBy(() -> folder.await(worker, Duration.ofSeconds(10), () -> false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("exited while starting: worker-b2 (log .run/logs/worker-b2.log);"
                        + " 'bin/flashsale worker stop b2 --force' stops what may still run");
    }

    private static RunFolder folder(Path run) {
        return new RunFolder(run.getParent(), run, Map.of());
    }

    /** The autogroup line of a {@code sleep} started detached at {@code niceness}, read once it has exec'ed. */
    private static String groupOf(RunFolder folder, int niceness) throws Exception {
        List<String> command = new ArrayList<>(FlashSaleStack.niced(niceness));
        command.addAll(List.of("sleep", "60"));
        long pid = folder.start("temporal", command, Map.of()).pid();
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
        try {
            Path cmdline = Path.of("/proc/" + pid + "/cmdline");
            Await.until(
                    "sleep to exec",
                    Duration.ofSeconds(10),
                    Duration.ofMillis(20),
                    () -> Files.readString(cmdline),
                    line -> line.startsWith("sleep"));
            assertThat(folder.pid("temporal"))
                    .as("the command its wrapper exec'ed")
                    .contains(pid);
            return Files.readString(Path.of("/proc/" + pid + "/autogroup")).strip();
        } finally {
            process.destroyForcibly();
            process.onExit().join();
        }
    }
}
