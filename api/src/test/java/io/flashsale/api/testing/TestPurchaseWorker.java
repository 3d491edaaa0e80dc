package io.flashsale.api.testing;

import io.flashsale.workflows.TaskQueues;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PurchaseWorkflowImpl;
import io.flashsale.workflows.purchase.ReservationActivities;
import io.temporal.client.WorkflowClient;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.util.concurrent.TimeUnit;

/** The purchase worker (workflow plus real activities) polling in the test JVM, like the worker process. */
public final class TestPurchaseWorker implements AutoCloseable {

    private final WorkerFactory factory;

    TestPurchaseWorker(WorkflowClient client, ReservationActivities reservations, OrderActivities orders) {
        factory = WorkerFactory.newInstance(client);
        Worker worker = factory.newWorker(TaskQueues.PURCHASE);
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
