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

    @AfterEach
    void closeTemporal() {
        temporal.close();
    }
}
