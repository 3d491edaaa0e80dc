package io.flashsale.workflows.purchase;

import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.flashsale.workflows.PurchaseSearchAttributes;
import io.flashsale.workflows.TaskQueues;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.interceptors.WorkerInterceptor;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.assertj.core.api.Condition;

/**
 * A time-skipping Temporal in memory running the purchase workflow on fake activities ({@link
 * FakeReservations}, {@link FakeOrders}) that record their calls in {@link #steps}. No MySQL, Redis
 * or Temporal server: a purchase's branch runs in milliseconds.
 */
final class PurchaseTestEnvironment implements AutoCloseable {

    static final String SALE = "s1";
    static final long PAY_TIMEOUT_SECONDS = 600;

    /** How long before the deadline a test sends an Update it then holds past the deadline. */
    private static final Duration JUST_BEFORE = Duration.ofSeconds(2);

    final Steps steps = new Steps();
    final FakeReservations reservations = new FakeReservations(steps);
    final FakeOrders orders = new FakeOrders(steps);
    private final TestWorkflowEnvironment env;

    private PurchaseTestEnvironment(WorkerInterceptor... interceptors) {
        env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
                .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder()
                        .setWorkerInterceptors(interceptors)
                        .build())
                .build());
        registerSearchAttributes(env);
        Worker worker = env.newWorker(TaskQueues.PURCHASE);
        worker.registerWorkflowImplementationTypes(PurchaseWorkflowImpl.class);
        worker.registerActivitiesImplementations(reservations, orders);
        env.start();
    }

    /** The purchase's search attributes, registered on {@code env} as the dev server registers them. */
    static void registerSearchAttributes(TestWorkflowEnvironment env) {
        PurchaseSearchAttributes.all()
                .forEach(
                        key -> env.registerSearchAttribute(key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD));
    }

    /** Purchases on the current workflow code. */
    static PurchaseTestEnvironment start() {
        return new PurchaseTestEnvironment();
    }

    /**
     * Purchases as those started before the first version marker run ({@link PinnedVersion}): before
     * {@code order-starts-the-deadline}, and so before {@code local-steps} too.
     */
    static PurchaseTestEnvironment startBeforeVersionOne() {
        return new PurchaseTestEnvironment(new PinnedVersion(Map.of(
                PurchaseWorkflowImpl.ORDER_STARTS_THE_DEADLINE, Workflow.DEFAULT_VERSION,
                PurchaseWorkflowImpl.LOCAL_STEPS, Workflow.DEFAULT_VERSION)));
    }

    /**
     * Purchases as those started on {@code version} of {@code local-steps} run ({@link
     * Workflow#DEFAULT_VERSION}: before it, every step an activity task).
     */
    static PurchaseTestEnvironment startOnLocalSteps(int version) {
        return new PurchaseTestEnvironment(new PinnedVersion(Map.of(PurchaseWorkflowImpl.LOCAL_STEPS, version)));
    }

    /** Starts {@code userId}'s purchase as the api does ({@link PurchaseStarter}). */
    PurchaseWorkflow purchase(String userId) {
        PurchaseRequest request = PurchaseRequest.of(SALE, userId, PAY_TIMEOUT_SECONDS);
        new PurchaseStarter(env.getWorkflowClient()).start(request);
        return env.getWorkflowClient().newWorkflowStub(PurchaseWorkflow.class, request.purchaseId());
    }

    /** Starts the purchase and waits until its order is written. */
    PurchaseWorkflow awaitingPayment(String userId) {
        PurchaseWorkflow purchase = purchase(userId);
        awaitStatus(purchase, PurchaseStatus.PENDING_PAYMENT);
        return purchase;
    }

    void awaitStatus(PurchaseWorkflow purchase, PurchaseStatus status) {
        await().atMost(Duration.ofSeconds(10)).until(() -> purchase.status().status() == status);
    }

    /** The purchase's outcome; time skips to whatever the workflow waits for. */
    PurchaseView result(PurchaseWorkflow purchase) {
        return WorkflowStub.fromTyped(purchase).getResult(PurchaseView.class);
    }

    /** Time skips past the pay deadline of a purchase awaiting payment (and its timer fires). */
    void passTheDeadline() {
        env.sleep(Duration.ofSeconds(PAY_TIMEOUT_SECONDS));
    }

    /** Time skips to {@link #JUST_BEFORE} the deadline: a step the test holds now outlasts it. */
    void skipToJustBeforeTheDeadline(PurchaseWorkflow purchase) {
        env.sleep(Duration.between(now(), purchase.status().payDeadline()).minus(JUST_BEFORE));
    }

    /** Waits (in real time: a step is held) until the purchase's deadline has passed. */
    void awaitTheDeadline(PurchaseWorkflow purchase) {
        Instant deadline = purchase.status().payDeadline();
        await().atMost(JUST_BEFORE.multipliedBy(5)).until(() -> now().isAfter(deadline));
    }

    /** Sends pay and returns once the workflow accepted it (its validator passed). */
    WorkflowUpdateHandle<PurchaseView> payAccepted(PurchaseWorkflow purchase, String paymentId) {
        return WorkflowStub.fromTyped(purchase)
                .startUpdate("pay", WorkflowUpdateStage.ACCEPTED, PurchaseView.class, new PaymentRequest(paymentId));
    }

    /**
     * How the workflow refuses {@code payment}: the failure of an Update that must not be accepted,
     * or null when it was. An accepted Update is given a second to answer, so a test that expects a
     * refusal fails on its assertion rather than waiting for a handler whose step it holds.
     */
    Throwable payRefusal(PurchaseWorkflow purchase, PaymentRequest payment) {
        return refusal(() -> WorkflowStub.fromTyped(purchase)
                .startUpdate("pay", WorkflowUpdateStage.ACCEPTED, PurchaseView.class, payment));
    }

    /** How the workflow refuses a cancel, or null when it accepted it ({@link #payRefusal}). */
    Throwable cancelRefusal(PurchaseWorkflow purchase) {
        return refusal(() -> cancelAccepted(purchase));
    }

    private static Throwable refusal(Supplier<WorkflowUpdateHandle<PurchaseView>> update) {
        return catchThrowable(
                () -> update.get().getResultAsync(1, TimeUnit.SECONDS).get());
    }

    /** Sends cancel and returns once the workflow accepted it. */
    WorkflowUpdateHandle<PurchaseView> cancelAccepted(PurchaseWorkflow purchase) {
        return WorkflowStub.fromTyped(purchase).startUpdate("cancel", WorkflowUpdateStage.ACCEPTED, PurchaseView.class);
    }

    /** The purchase's PurchaseStatus search attribute, as the Web UI lists it. */
    String statusAttribute(PurchaseWorkflow purchase) {
        return WorkflowStub.fromTyped(purchase)
                .describe()
                .getTypedSearchAttributes()
                .get(PurchaseSearchAttributes.STATUS);
    }

    /** The purchase's event history as Temporal has it now. */
    WorkflowExecutionHistory history(PurchaseWorkflow purchase) {
        return env.getWorkflowClient()
                .fetchHistory(WorkflowStub.fromTyped(purchase).getExecution().getWorkflowId());
    }

    /** A failure that carries {@code failure}'s type: how the api tells a refusal. */
    static Condition<Throwable> refusedAs(PurchaseFailure failure) {
        return new Condition<>(failure::matches, "refused as %s", failure);
    }

    private Instant now() {
        return Instant.ofEpochMilli(env.currentTimeMillis());
    }

    /** Lets every held step go first, so that a failed test never leaves an activity waiting. */
    @Override
    public void close() {
        orders.writing.release();
        orders.paying.release();
        orders.cancelling.release();
        env.close();
    }
}
