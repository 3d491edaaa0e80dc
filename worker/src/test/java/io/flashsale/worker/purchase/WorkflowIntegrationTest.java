package io.flashsale.worker.purchase;

import static org.awaitility.Awaitility.await;

import io.flashsale.activities.testing.ActivitiesIntegrationTest;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import io.flashsale.workflows.purchase.PurchaseWorkflow;
import io.flashsale.workflows.purchase.ReservationActivities;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Base of the worker's integration tests: the real activities on fresh stores (a context, schema
 * and Redis key prefix per test class, see {@link ActivitiesIntegrationTest}) and, per test, a
 * time-skipping Temporal running the purchase worker ({@link TemporalTestEnvironment}) and an open
 * sale of three units in MySQL and Redis.
 */
public abstract class WorkflowIntegrationTest extends ActivitiesIntegrationTest {

    @Autowired
    protected ReservationActivities reservations;

    @Autowired
    protected OrderActivities orders;

    @Autowired
    protected SaleRepository sales;

    protected PurchaseFixture fixture;
    protected TestWorkflowEnvironment env;
    protected Sale sale;

    @BeforeEach
    void startTemporalAndSale() {
        fixture = new PurchaseFixture(sales, stock, gate, jdbc);
        env = startTemporal();
        sale = fixture.create(TestSales.open(3));
    }

    @AfterEach
    void closeTemporal() {
        env.close();
    }

    /** Waits up to 20 s for the started purchase to await payment and returns its workflow. */
    protected PurchaseWorkflow awaitPayment(PurchaseRequest request) {
        PurchaseWorkflow workflow =
                env.getWorkflowClient().newWorkflowStub(PurchaseWorkflow.class, request.purchaseId());
        await().atMost(Duration.ofSeconds(20))
                .until(() -> workflow.status().status() == PurchaseStatus.PENDING_PAYMENT);
        return workflow;
    }

    /** Waits for the purchase's workflow to finish and returns its result. */
    protected PurchaseView result(PurchaseRequest request) {
        return WorkflowStub.fromTyped(
                        env.getWorkflowClient().newWorkflowStub(PurchaseWorkflow.class, request.purchaseId()))
                .getResult(PurchaseView.class);
    }

    /**
     * Replays the purchase's history against the current code and keeps it for the workflows
     * module's replay test, under {@code name} ({@link RecordedHistories}).
     */
    protected void keep(PurchaseRequest request, String name) throws Exception {
        RecordedHistories.keep(env.getWorkflowClient(), request, name);
    }

    /** Starts the test's Temporal with the real activities on its worker; override to wrap them. */
    protected TestWorkflowEnvironment startTemporal() {
        return TemporalTestEnvironment.start(reservations, orders);
    }
}
