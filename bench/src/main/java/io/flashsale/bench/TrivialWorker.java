package io.flashsale.bench;

import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.util.concurrent.CountDownLatch;

/**
 * The trivial workflow's worker, run as its own JVM like the purchase worker, with the SDK's default
 * worker options (the purchase worker's Spring Boot starter sets none either).
 */
final class TrivialWorker {

    private TrivialWorker() {}

    static void run(String temporalAddress) throws InterruptedException {
        WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget(temporalAddress)
                .build());
        WorkflowClient client = WorkflowClient.newInstance(
                service,
                WorkflowClientOptions.newBuilder().setNamespace("default").build());
        WorkerFactory factory = WorkerFactory.newInstance(client);
        Worker worker = factory.newWorker(TrivialWorkflow.TASK_QUEUE);
        worker.registerWorkflowImplementationTypes(TrivialWorkflowImpl.class);
        worker.registerActivitiesImplementations(new TrivialWorkflowImpl.NoOpSteps());
        factory.start();
        Runtime.getRuntime().addShutdownHook(new Thread(factory::shutdownNow));
        System.out.println("trivial worker ready");
        new CountDownLatch(1).await();
    }
}
