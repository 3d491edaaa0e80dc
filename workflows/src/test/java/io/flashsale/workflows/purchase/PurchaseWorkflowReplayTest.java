package io.flashsale.workflows.purchase;

import io.temporal.testing.WorkflowReplayer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Histories recorded from real runs (worker module's PurchaseWorkflowIT, against MySQL and Redis)
 * must replay against the current workflow code: a change that breaks determinism for purchases in
 * flight fails here. The top-level ones are recorded at version 1 ({@code
 * order-starts-the-deadline}: the pay deadline starts with the order, a sold-out hold is voided).
 * Record new ones when the workflow legitimately changes, behind a version marker ({@code
 * Workflow.getVersion}). {@code unversioned/} holds the last histories recorded before
 * the workflow's first version marker: purchases in flight at that change replay the old branch.
 */
class PurchaseWorkflowReplayTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "purchase-paid.json",
                "purchase-expired.json",
                "purchase-cancelled.json",
                "purchase-rejected.json",
                "unversioned/purchase-paid.json",
                "unversioned/purchase-expired.json",
                "unversioned/purchase-cancelled.json",
                "unversioned/purchase-rejected.json"
            })
    void recordedHistoryReplays(String history) throws Exception {
        WorkflowReplayer.replayWorkflowExecutionFromResource("histories/" + history, PurchaseWorkflowImpl.class);
    }
}
