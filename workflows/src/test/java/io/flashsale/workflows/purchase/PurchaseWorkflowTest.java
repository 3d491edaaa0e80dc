package io.flashsale.workflows.purchase;

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
        temporal.close();
        temporal = PurchaseTestEnvironment.startBeforeLocalSteps();
    }

    @AfterEach
    void closeTemporal() {
        temporal.close();
    }
}
