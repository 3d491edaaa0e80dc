package io.flashsale.worker.purchase;

import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseWorkflowImpl;
import io.temporal.client.WorkflowClient;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The history of a purchase that went down a path the workflows module's replay test covers
 * ({@code PurchaseWorkflowReplayTest}): replayed against the current workflow code at once, and,
 * only when the build runs with {@code -Dflashsale.recordHistories=true}, written to {@code
 * workflows/src/test/resources/histories/<name>.json} to be committed (docs/workflow-changes.md).
 */
final class RecordedHistories {

    /** The switch that writes the histories; off by default. */
    static final String RECORD = "flashsale.recordHistories";

    /** Set by the worker's build: the workflows module's histories folder. */
    private static final String FOLDER = "flashsale.histories";

    private RecordedHistories() {}

    static void keep(WorkflowClient client, PurchaseRequest request, String name) throws Exception {
        WorkflowExecutionHistory history = client.fetchHistory(request.purchaseId());
        WorkflowReplayer.replayWorkflowExecution(history, PurchaseWorkflowImpl.class);
        if (Boolean.getBoolean(RECORD)) {
            Path folder = Path.of(System.getProperty(FOLDER));
            Files.writeString(folder.resolve(name + ".json"), history.toJson(true));
        }
    }
}
