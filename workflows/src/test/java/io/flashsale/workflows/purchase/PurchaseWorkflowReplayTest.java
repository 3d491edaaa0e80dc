package io.flashsale.workflows.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.testing.WorkflowReplayer;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every history under {@code histories/} must replay against the current workflow code: a change
 * that would break a purchase in flight fails the build here. They are recorded from real runs on
 * MySQL and Redis by the worker's integration tests ({@code RecordedHistories}). The top level
 * holds the current version's, one per path that matters; each folder holds those of an earlier
 * version that purchases started then still follow ({@code unversioned/}: before the first {@code
 * Workflow.getVersion} marker). Recording and versioning: docs/workflow-changes.md.
 */
class PurchaseWorkflowReplayTest {

    /** The paths the current version has a history of, each named as its file. */
    private static final List<String> PATHS = List.of(
            "paid",
            "expired",
            "cancelled",
            "cancelled-twice",
            "rejected-sold-out",
            "rejected-order-invalid",
            "rejected-order-ended",
            "payment-failed-then-paid",
            "retried-steps-expired",
            "retried-payment-paid",
            "order-handed-off-paid",
            "paid-as-the-deadline-passes",
            "cancelled-as-the-deadline-passes");

    @TestFactory
    Stream<DynamicTest> everyRecordedHistoryReplays() throws Exception {
        Path folder = folder();
        return histories(folder).stream().map(file -> {
            String name = folder.relativize(file).toString();
            return DynamicTest.dynamicTest(name, () -> replay(name, file));
        });
    }

    @Test
    void theCurrentVersionHasAHistoryOfEveryPathThatMatters() throws Exception {
        Path folder = folder();
        for (String path : PATHS) {
            assertThat(folder.resolve(path + ".json")).isRegularFile();
        }
    }

    private static void replay(String name, Path file) {
        try {
            WorkflowReplayer.replayWorkflowExecution(file.toFile(), PurchaseWorkflowImpl.class);
        } catch (Exception e) {
            throw new AssertionError(name + " does not replay against the current workflow code", e);
        }
    }

    private static List<Path> histories(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(file -> file.toString().endsWith(".json"))
                    .sorted()
                    .toList();
        }
    }

    private static Path folder() throws URISyntaxException {
        return Path.of(Objects.requireNonNull(PurchaseWorkflowReplayTest.class.getResource("/histories"))
                .toURI());
    }
}
