package io.flashsale.bench;

import io.flashsale.workflows.purchase.PurchaseWorkflowImpl;
import io.temporal.activity.ActivityInterface;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/** P3's ceiling: three no-op activities with the purchase's options, served by a JVM of its own. */
public final class TrivialWorker {

    static final String READY = "trivial worker ready";
    private static final String TASK_QUEUE = "flashsale-bench-trivial";

    @WorkflowInterface
    public interface TrivialWorkflow {
        @WorkflowMethod
        String run(String id);
    }

    @ActivityInterface
    public interface Steps {
        String step(String id, int n);
    }

    public static class TrivialWorkflowImpl implements TrivialWorkflow {

        private final Steps steps = Workflow.newActivityStub(Steps.class, PurchaseWorkflowImpl.ACTIVITY_OPTIONS);

        @Override
        public String run(String id) {
            steps.step(id, 1);
            steps.step(id, 2);
            return steps.step(id, 3);
        }
    }

    private TrivialWorker() {}

    /** Serves the trivial workflow on Temporal at {@code args[0]} until stopped. */
    public static void main(String[] args) throws InterruptedException {
        WorkerFactory factory = WorkerFactory.newInstance(client(args[0]));
        Worker worker = factory.newWorker(TASK_QUEUE);
        worker.registerWorkflowImplementationTypes(TrivialWorkflowImpl.class);
        worker.registerActivitiesImplementations((Steps) (id, n) -> id);
        factory.start();
        Runtime.getRuntime().addShutdownHook(new Thread(factory::shutdownNow));
        System.out.println(READY);
        new CountDownLatch(1).await();
    }

    /** Seconds until {@code n} trivial workflows, started from {@code threads} threads, completed; at most {@code timeout}. */
    static double complete(String address, String prefix, int n, int threads, Duration timeout) throws Exception {
        WorkflowClient client = client(address);
        ExecutorService starters = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        try {
            CompletableFuture<?>[] results = IntStream.range(0, n)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> start(client, prefix + "-" + i), starters)
                            .thenCompose(result -> result))
                    .toArray(CompletableFuture[]::new);
            CompletableFuture.allOf(results).get(timeout.toSeconds(), TimeUnit.SECONDS);
        } finally {
            starters.shutdownNow();
            client.getWorkflowServiceStubs().shutdownNow();
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static CompletableFuture<String> start(WorkflowClient client, String id) {
        var options = WorkflowOptions.newBuilder().setWorkflowId(id).setTaskQueue(TASK_QUEUE);
        return WorkflowClient.execute(client.newWorkflowStub(TrivialWorkflow.class, options.build())::run, id);
    }

    private static WorkflowClient client(String address) {
        return WorkflowClient.newInstance(WorkflowServiceStubs.newServiceStubs(
                WorkflowServiceStubsOptions.newBuilder().setTarget(address).build()));
    }
}
