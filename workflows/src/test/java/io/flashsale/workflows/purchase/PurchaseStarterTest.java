package io.flashsale.workflows.purchase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.util.Durations;
import io.flashsale.workflows.TaskQueues;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall.SimpleForwardingClientCall;
import io.grpc.ForwardingClientCallListener.SimpleForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.StartWorkflowExecutionResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowStub;
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

    /**
     * A buyer whose order MySQL refused (the hold voided, the buyer forgotten) is admitted again
     * while the rejected run is still closing: the new admission's start must not be taken for a
     * repeat of the old one and dropped, but retried once that run has closed.
     */
    @Test
    void startsAReadmissionOnlyOnceTheEarlierAdmissionsRunHasClosed() {
        PurchaseTestEnvironment.registerSearchAttributes(env);
        WorkflowClient client = env.getWorkflowClient();
        PurchaseStarter starter = new PurchaseStarter(client);
        PurchaseRequest first = new PurchaseRequest("purchase-s1-bob", "s1", "bob", 600, 1_000);
        PurchaseRequest again = new PurchaseRequest("purchase-s1-bob", "s1", "bob", 600, 2_000);
        assertThat(starter.start(first)).isTrue();

        assertThat(starter.start(first)).as("a repeat of the same admission").isFalse();
        assertThatThrownBy(() -> starter.start(again)).isInstanceOf(PurchaseStarter.EarlierRunStillOpen.class);

        FakeOrders orders = new FakeOrders(steps);
        orders.refuseOrders(PurchaseFailure.SOLD_OUT);
        Worker worker = env.newWorker(TaskQueues.PURCHASE);
        worker.registerWorkflowImplementationTypes(PurchaseWorkflowImpl.class);
        worker.registerActivitiesImplementations(new FakeReservations(steps), orders);
        env.start();
        PurchaseWorkflow bob = client.newWorkflowStub(PurchaseWorkflow.class, first.purchaseId());
        assertThat(WorkflowStub.fromTyped(bob).getResult(PurchaseView.class).status())
                .isEqualTo(PurchaseStatus.REJECTED);
        assertThat(starter.start(again)).isTrue();
        assertThat(starter.start(again)).isFalse();
    }

    /**
     * A rehearsal's run is deleted (checked on the dev server, FlashSaleEndToEndIT); where the server
     * refuses the delete, as the Java test server does, the run waits on a queue no worker polls and
     * times out by itself. A purchase id that has a run is never rehearsed over.
     */
    @Test
    void rehearsesOnAQueueNoWorkerPollsAndNeverOverAnotherRun() {
        PurchaseTestEnvironment.registerSearchAttributes(env);
        WorkflowClient client = env.getWorkflowClient();
        PurchaseStarter starter = new PurchaseStarter(client);
        PurchaseRequest rehearsal = new PurchaseRequest("purchase-w1-carol", "w1", "carol", 600, 1_000);
        PurchaseRequest real = new PurchaseRequest("purchase-s1-dave", "s1", "dave", 600, 1_000);
        assertThat(starter.start(real)).isTrue();

        assertThatThrownBy(() -> starter.rehearse(rehearsal))
                .as("the test server cannot delete a run")
                .isInstanceOf(StatusRuntimeException.class);
        assertThatThrownBy(() -> starter.rehearse(real)).isInstanceOf(WorkflowExecutionAlreadyStarted.class);

        var left =
                client.newUntypedWorkflowStub(rehearsal.purchaseId()).describe().getRawDescription();
        assertThat(left.getExecutionConfig().getTaskQueue().getName()).isEqualTo(TaskQueues.REHEARSAL);
        assertThat(Durations.toMillis(left.getExecutionConfig().getWorkflowExecutionTimeout()))
                .isEqualTo(PurchaseStarter.REHEARSAL_TIMEOUT.toMillis());
        var untouched = client.newUntypedWorkflowStub(real.purchaseId()).describe();
        assertThat(untouched.getStatus()).isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
        assertThat(untouched
                        .getRawDescription()
                        .getExecutionConfig()
                        .getTaskQueue()
                        .getName())
                .isEqualTo(TaskQueues.PURCHASE);
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
