package io.flashsale.api.testing;

import io.flashsale.workflows.TaskQueues;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PurchaseWorkflowImpl;
import io.flashsale.workflows.purchase.ReservationActivities;
import io.temporal.client.WorkflowClient;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import java.util.concurrent.TimeUnit;

/**
 * The purchase worker (workflow plus real activities) polling in the test JVM, like the worker
 * process. Unlike it, the worker shares the api's MySQL pool here: it runs at most pool - 1
 * activities and as many local activities at once (the order writes are local activities, the
 * compensations and payments activities), so a burst's orders never leave a sale admin request (a
 * close, a restock) waiting past Hikari's timeout for a connection.
 */
public final class TestPurchaseWorker implements AutoCloseable {

    private final WorkerFactory factory;

    TestPurchaseWorker(WorkflowClient client, ReservationActivities reservations, OrderActivities orders) {
        factory = WorkerFactory.newInstance(client);
        int steps = ApiIntegrationTest.POOL_SIZE - 1;
        Worker worker = factory.newWorker(
                TaskQueues.PURCHASE,
                WorkerOptions.newBuilder()
                        .setMaxConcurrentActivityExecutionSize(steps)
                        .setMaxConcurrentLocalActivityExecutionSize(steps)
                        .build());
        worker.registerWorkflowImplementationTypes(PurchaseWorkflowImpl.class);
        worker.registerActivitiesImplementations(reservations, orders);
        factory.start();
    }

    @Override
    public void close() {
        factory.shutdownNow();
        factory.awaitTermination(10, TimeUnit.SECONDS);
    }
}
