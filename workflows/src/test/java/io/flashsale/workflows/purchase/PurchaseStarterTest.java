package io.flashsale.workflows.purchase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.flashsale.workflows.TaskQueues;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall.SimpleForwardingClientCall;
import io.grpc.ForwardingClientCallListener.SimpleForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.temporal.api.workflowservice.v1.StartWorkflowExecutionResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Starting purchases the way the api and the worker's relay do, on an in-memory Temporal. */
class PurchaseStarterTest {

    /** Start answers that carried the purchase's first workflow task (an eager start). */
    private final AtomicInteger eagerAnswers = new AtomicInteger();

    private final Steps steps = new Steps();
    private final TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
            .setWorkflowServiceStubsOptions(WorkflowServiceStubsOptions.newBuilder()
                    .setGrpcClientInterceptors(List.of(new EagerAnswers()))
                    .build())
            .build());

    @AfterEach
    void close() {
        env.close();
    }

    /**
     * A process that runs the purchase worker on the client it starts with (the worker's relay)
     * gets the first workflow task in the start's answer and runs it itself: no trip through
     * matching and no poll for it.
     */
    @Test
    void startsEagerlyWhereThePurchaseWorkerRunsOnTheStartingClient() {
        PurchaseTestEnvironment.registerSearchAttributes(env);
        // one client for the worker and the starts, as in the worker process
        WorkflowClient client = WorkflowClient.newInstance(
                env.getWorkflowServiceStubs(),
                WorkflowClientOptions.newBuilder()
                        .setNamespace(env.getNamespace())
                        .build());
        WorkerFactory factory = WorkerFactory.newInstance(client);
        Worker worker = factory.newWorker(TaskQueues.PURCHASE);
        worker.registerWorkflowImplementationTypes(PurchaseWorkflowImpl.class);
        worker.registerActivitiesImplementations(new FakeReservations(steps), new FakeOrders(steps));
        factory.start();
        PurchaseRequest request = new PurchaseRequest("purchase-s1-alice", "s1", "alice", 600, 0);
        try {
            assertThat(new PurchaseStarter(client).start(request)).isTrue();

            assertThat(eagerAnswers).hasValue(1);
            PurchaseWorkflow purchase = client.newWorkflowStub(PurchaseWorkflow.class, request.purchaseId());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> purchase.status().status() == PurchaseStatus.PENDING_PAYMENT);
        } finally {
            factory.shutdownNow();
        }
    }

    /** Counts the start answers that carry a workflow task. */
    private final class EagerAnswers implements ClientInterceptor {

        @Override
        public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
            return new SimpleForwardingClientCall<>(next.newCall(method, options)) {
                @Override
                public void start(Listener<A> listener, Metadata headers) {
                    super.start(
                            new SimpleForwardingClientCallListener<>(listener) {
                                @Override
                                public void onMessage(A message) {
                                    if (message instanceof StartWorkflowExecutionResponse answer
                                            && answer.hasEagerWorkflowTask()) {
                                        eagerAnswers.incrementAndGet();
                                    }
                                    super.onMessage(message);
                                }
                            },
                            headers);
                }
            };
        }
    }
}
