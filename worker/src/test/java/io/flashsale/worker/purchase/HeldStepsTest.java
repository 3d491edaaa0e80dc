package io.flashsale.worker.purchase;

import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.flashsale.workflows.purchase.PurchaseView;
import io.flashsale.workflows.purchase.PurchaseWorkflow;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Timeout;

/**
 * Purchases whose MySQL steps the test can hold ({@link HeldOrders}), to send pay and cancel while a
 * step of the purchase runs. While a step is held, Temporal's test clock runs in real time (it
 * skips only when nothing is under way). A test that would wait for a step no one lets go fails
 * after a minute instead of hanging.
 */
@Timeout(60)
abstract class HeldStepsTest extends WorkflowIntegrationTest {

    HeldOrders mysql;

    @Override
    protected TestWorkflowEnvironment startTemporal() {
        mysql = new HeldOrders(orders);
        return TemporalTestEnvironment.start(reservations, mysql);
    }

    PurchaseRequest start(String user) {
        PurchaseRequest request = fixture.admit(sale, user);
        new PurchaseStarter(env.getWorkflowClient()).start(request);
        return request;
    }

    PurchaseRequest startAndAwaitPayment(String user) {
        PurchaseRequest request = start(user);
        awaitPayment(request);
        return request;
    }

    Updates updates(PurchaseRequest request) {
        return Updates.of(env.getWorkflowClient(), request);
    }

    /** What the purchase's workflow answers now (a query). */
    PurchaseView status(PurchaseRequest request) {
        return env.getWorkflowClient()
                .newWorkflowStub(PurchaseWorkflow.class, request.purchaseId())
                .status();
    }

    /** Time left until the purchase's pay deadline, on the test's Temporal clock. */
    Duration untilDeadline(PurchaseRequest request) {
        Instant deadline = status(request).payDeadline();
        return Duration.between(Instant.ofEpochMilli(env.currentTimeMillis()), deadline);
    }

    /** The pay deadline's timer fired (it is in the purchase's history). */
    boolean deadlinePassed(PurchaseRequest request) {
        return env.getWorkflowClient().fetchHistory(request.purchaseId()).getEvents().stream()
                .anyMatch(event -> event.getEventType() == EventType.EVENT_TYPE_TIMER_FIRED);
    }

    boolean running(PurchaseRequest request) {
        return Describe.workflow(env.getWorkflowClient(), request.purchaseId())
                        .getWorkflowExecutionInfo()
                        .getStatus()
                == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
    }
}
