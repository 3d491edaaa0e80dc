package io.flashsale.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.stores.testing.TestStores;
import io.flashsale.worker.purchase.PurchaseFixture;
import io.flashsale.worker.purchase.TemporalTestEnvironment;
import io.flashsale.workflows.TaskQueues;
import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The worker as it starts in production (WorkerApplication and its application.yaml) on fresh
 * MySQL and Redis, with the Temporal starter's in-memory server in place of a Temporal service: the
 * starter finds the purchase workflow and both activities on their own and runs a purchase
 * through them on the purchase task queue, with the configured capacity.
 */
@SpringBootTest(
        classes = WorkerApplication.class,
        properties = {"spring.temporal.test-server.enabled=true", "WORKER_MAX_LOCAL_ACTIVITIES=120"})
class WorkerApplicationIT {

    @Autowired
    WorkerFactory workers;

    @Autowired
    WorkflowClient client;

    @Autowired
    TestWorkflowEnvironment temporal;

    @Autowired
    SaleRepository sales;

    @Autowired
    SaleStock stock;

    @Autowired
    AdmissionGate gate;

    @Autowired
    JdbcClient jdbc;

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        TestStores.register(registry);
    }

    @Test
    void runsAPurchaseOnTheDiscoveredWorkflowAndActivities() {
        TemporalTestEnvironment.registerSearchAttributes(temporal);
        PurchaseFixture fixture = new PurchaseFixture(sales, stock, gate, jdbc);
        Sale sale = fixture.create(TestSales.open(3));
        PurchaseRequest request = fixture.admit(sale, "ann");

        new PurchaseStarter(client).start(request);
        PurchaseWorkflow purchase = client.newWorkflowStub(PurchaseWorkflow.class, request.purchaseId());
        await().atMost(Duration.ofSeconds(20))
                .until(() -> purchase.status().status() == PurchaseStatus.PENDING_PAYMENT);
        purchase.pay(new PaymentRequest("pay-ann"));

        assertThat(fixture.orderStatus(request)).contains("PAID");
        assertThat(fixture.available(sale)).isEqualTo(2);
    }

    @Test
    void givesThePurchaseWorkerTheConfiguredCapacity() {
        WorkerOptions options = workers.getWorker(TaskQueues.PURCHASE).getWorkerOptions();

        assertThat(options.getMaxConcurrentWorkflowTaskExecutionSize()).isEqualTo(200);
        assertThat(options.getMaxConcurrentActivityExecutionSize()).isEqualTo(200);
        assertThat(options.getMaxConcurrentLocalActivityExecutionSize()).isEqualTo(120);
        assertThat(options.getMaxConcurrentWorkflowTaskPollers()).isEqualTo(4);
        assertThat(options.getMaxConcurrentActivityTaskPollers()).isEqualTo(4);
    }
}
