package io.flashsale.bench;

import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.util.concurrent.CountDownLatch;

/**
 * P3's trivial workflow's worker, run as its own JVM like the purchase worker, with the SDK's
 * default worker options (the purchase worker's Spring Boot starter sets none either).
 */
final class TrivialWorker {

    static final String READY = "trivial worker ready";

    private TrivialWorker() {}

    /** Serves the trivial workflow on Temporal at {@code args[0]} until stopped. */
    public static void main(String[] args) throws InterruptedException {
        WorkerFactory factory = WorkerFactory.newInstance(client(args[0]));
        Worker worker = factory.newWorker(TrivialWorkflow.TASK_QUEUE);
        worker.registerWorkflowImplementationTypes(TrivialWorkflowImpl.class);
        worker.registerActivitiesImplementations(new TrivialWorkflowImpl.NoOpSteps());
        factory.start();
        Runtime.getRuntime().addShutdownHook(new Thread(factory::shutdownNow));
        System.out.println(READY);
        new CountDownLatch(1).await();
    }

    /** A client of the default namespace on Temporal at {@code address}. */
    static WorkflowClient client(String address) {
        return WorkflowClient.newInstance(WorkflowServiceStubs.newServiceStubs(
                WorkflowServiceStubsOptions.newBuilder().setTarget(address).build()));
    }
}
