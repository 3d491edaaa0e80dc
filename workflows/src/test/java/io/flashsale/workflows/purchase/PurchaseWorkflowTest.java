package io.flashsale.workflows.purchase;

import io.temporal.workflow.Workflow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Base of the fast workflow tests: a fresh time-skipping Temporal with fake activities per test. */
abstract class PurchaseWorkflowTest {

    PurchaseTestEnvironment temporal;

    @BeforeEach
    void startTemporal() {
        temporal = PurchaseTestEnvironment.start();
    }

    /**
     * For a test that holds {@code createOrder} to act while it runs: on the activity steps of the
     * purchases started before {@code local-steps}. A local step runs inside the workflow task, so
     * a query or an Update sent meanwhile waits for it (PurchaseWorkflowLocalStepsTest).
     */
    void beforeLocalSteps() {
        onLocalSteps(Workflow.DEFAULT_VERSION);
    }

    /** Runs the test's purchases as those started on {@code version} of {@code local-steps}. */
    void onLocalSteps(int version) {
        temporal.close();
        temporal = PurchaseTestEnvironment.startOnLocalSteps(version);
    }

    @AfterEach
    void closeTemporal() {
        temporal.close();
    }
}
