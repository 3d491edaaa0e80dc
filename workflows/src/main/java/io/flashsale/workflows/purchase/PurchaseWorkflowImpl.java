package io.flashsale.workflows.purchase;

import io.temporal.activity.ActivityOptions;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.api.enums.v1.RetryState;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Saga;
import io.temporal.workflow.TimerOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;

/**
 * The purchase saga. Single-threaded: whether payment, cancel or the deadline wins is decided here
 * exactly once ({@link #decision}); the conditional SQL and Lua behind the activities are the second
 * guard. Compensations are registered before the step they undo.
 */
public class PurchaseWorkflowImpl implements PurchaseWorkflow {

    /** Transient Redis or MySQL errors are retried without limit: a purchase never gets lost. */
    public static final ActivityOptions ACTIVITY_OPTIONS = ActivityOptions.newBuilder()
            .setStartToCloseTimeout(Duration.ofSeconds(10))
            .setRetryOptions(RetryOptions.newBuilder()
                    .setInitialInterval(Duration.ofMillis(200))
                    .setBackoffCoefficient(2)
                    .setMaximumInterval(Duration.ofSeconds(10))
                    .build())
            .build();

    /**
     * The local steps of version 1 of {@link #LOCAL_STEPS}: each attempt at most 10 s, retried
     * without limit with the same backoff. The first retries (backoff up to {@link
     * #LOCAL_RETRY_THRESHOLD}) stay in the worker, which keeps the workflow task alive meanwhile;
     * longer backoffs are workflow timers, each attempt that failed into one a marker in the history.
     * A local activity retries only within a schedule-to-close timeout: 30 days stands for "without
     * limit". Each retry on a timer adds events to the history, so an outage of many hours nears
     * Temporal's history limits: version 2 hands the step to an activity task instead.
     */
    static final Duration LOCAL_RETRY_THRESHOLD = Duration.ofSeconds(1);

    public static final LocalActivityOptions UNBOUNDED_LOCAL_ACTIVITY_OPTIONS = LocalActivityOptions.newBuilder()
            .setStartToCloseTimeout(ACTIVITY_OPTIONS.getStartToCloseTimeout())
            .setScheduleToCloseTimeout(Duration.ofDays(30))
            .setRetryOptions(ACTIVITY_OPTIONS.getRetryOptions())
            .setLocalRetryThreshold(LOCAL_RETRY_THRESHOLD)
            .build();

    /** Attempts of a local step in the worker before it becomes an activity task (version 2). */
    static final int LOCAL_ATTEMPTS = 3;

    /**
     * The local steps from version 2 of {@link #LOCAL_STEPS}: {@link #LOCAL_ATTEMPTS} attempts of
     * at most 10 s each, 0.2 and 0.4 s apart, all within the workflow task that started them (no
     * timer, no marker of a failed attempt). A step that still fails, or hangs, is then run as an
     * activity task with {@link #ACTIVITY_OPTIONS}: its retries during a long outage add nothing to
     * the history, and the workflow task that waited for the local attempts ends after about 31 s at
     * most, so the purchase answers its status query, a cancel or a payment again. The one-minute
     * schedule-to-close only bounds the three attempts (a local activity without one gives up after
     * its first attempt).
     */
    public static final LocalActivityOptions LOCAL_ACTIVITY_OPTIONS = LocalActivityOptions.newBuilder()
            .setStartToCloseTimeout(ACTIVITY_OPTIONS.getStartToCloseTimeout())
            .setScheduleToCloseTimeout(Duration.ofMinutes(1))
            .setRetryOptions(RetryOptions.newBuilder(ACTIVITY_OPTIONS.getRetryOptions())
                    .setMaximumAttempts(LOCAL_ATTEMPTS)
                    .build())
            .setLocalRetryThreshold(LOCAL_RETRY_THRESHOLD)
            .build();

    /**
     * Version 1: the pay deadline starts when the order is written (not before {@code createOrder},
     * which a MySQL outage can hold up past the deadline), and a unit MySQL refused as sold out is
     * voided in Redis instead of given back. Purchases started before run the old steps.
     */
    static final String ORDER_STARTS_THE_DEADLINE = "order-starts-the-deadline";

    /**
     * Version 1: {@code confirmReservation} and {@code createOrder} run as local activities, in the
     * worker that runs the workflow task: the path from the start to PENDING_PAYMENT is one workflow
     * task and no activity task. Both steps are short and idempotent (the Lua script finds the hold
     * it confirmed, {@code UNIQUE(purchase_id)} returns the order it wrote), so a step run again
     * after a worker died changes nothing. Purchases started before run them as activities.
     *
     * <p>Version 2: a local step that fails {@link #LOCAL_ATTEMPTS} times (not a business refusal,
     * which ends it for good) is run again as an activity task ({@link #handedOff}).
     */
    static final String LOCAL_STEPS = "local-steps";

    private static final int HANDED_OFF = 2;

    private enum Decision {
        PAY,
        CANCEL,
        EXPIRE
    }

    private final PurchaseState state = new PurchaseState();
    private Decision decision;
    private String paymentInFlight;
    private boolean orderFirst;
    private int localSteps;

    @Override
    public PurchaseView purchase(PurchaseRequest request) {
        state.start(request);
        orderFirst = Workflow.getVersion(ORDER_STARTS_THE_DEADLINE, Workflow.DEFAULT_VERSION, 1) == 1;
        localSteps = Workflow.getVersion(LOCAL_STEPS, Workflow.DEFAULT_VERSION, HANDED_OFF);
        Saga saga = new Saga(new Saga.Options.Builder().build());
        saga.addCompensation(this::releaseReservation);
        if (!firstStep(
                ReservationActivities.class,
                "Confirm the Redis hold",
                step -> step.confirmReservation(request.saleId(), request.purchaseId(), request.userId()))) {
            return reject(saga, "no unit left in Redis");
        }
        saga.addCompensation(this::cancelOrder);
        try {
            createOrder(request);
        } catch (ActivityFailure failure) {
            return refused(saga, failure);
        }
        awaitPaymentOrDeadline(state.payDeadline());
        if (state.status() == PurchaseStatus.PAID) {
            return finish();
        }
        PurchaseStatus outcome = decision == Decision.CANCEL ? PurchaseStatus.CANCELLED : PurchaseStatus.EXPIRED;
        state.endAs(outcome, decision == Decision.CANCEL ? "cancelled by the buyer" : "pay deadline passed");
        saga.compensate();
        state.transition(outcome);
        return finish();
    }

    /** Writes the order; the pay deadline starts once it exists (before version 1: before the write). */
    private void createOrder(PurchaseRequest request) {
        String summary = "Create the order in MySQL";
        if (!orderFirst) {
            Instant deadline = now().plusSeconds(request.payTimeoutSeconds());
            NewOrder order = new NewOrder(request.purchaseId(), request.saleId(), request.userId(), deadline);
            long orderId = firstStep(OrderActivities.class, summary, step -> step.createOrder(order));
            state.awaitPayment(orderId, deadline);
            return;
        }
        NewOrder order = NewOrder.deadlineFromWrite(request);
        long orderId = firstStep(OrderActivities.class, summary, step -> step.createOrder(order));
        state.awaitPayment(orderId, now().plusSeconds(request.payTimeoutSeconds()));
        recordAdmissionToOrder(request);
    }

    /** The buyer's wait from the 202 to PENDING_PAYMENT; the metrics scope does not emit in replay. */
    private static void recordAdmissionToOrder(PurchaseRequest request) {
        if (request.admittedAtMillis() > 0) {
            long waited = Math.max(0, Workflow.currentTimeMillis() - request.admittedAtMillis());
            Workflow.getMetricsScope()
                    .timer(PurchaseMetrics.ADMISSION_TO_ORDER)
                    .record(com.uber.m3.util.Duration.ofMillis(waited));
        }
    }

    /**
     * MySQL refused the order for good. Sold out: the Redis hold never had a unit behind it, so it is
     * voided (version 1) rather than released. The purchase's order ended in an earlier run (its
     * workflow was gone, retention): the hold belongs to that order, nothing is undone.
     */
    private PurchaseView refused(Saga saga, ActivityFailure failure) {
        String reason = "MySQL refused the order: " + failure.getCause().getMessage();
        if (PurchaseFailure.SOLD_OUT.matches(failure) && orderFirst) {
            return voidHold(reason);
        }
        if (PurchaseFailure.ORDER_ENDED.matches(failure)) {
            return end(PurchaseStatus.REJECTED, reason);
        }
        if (PurchaseFailure.SOLD_OUT.matches(failure)
                || PurchaseFailure.ALREADY_ORDERED.matches(failure)
                || PurchaseFailure.ORDER_INVALID.matches(failure)) {
            return reject(saga, reason);
        }
        throw failure;
    }

    /** Waits until the deadline or a decision; a failed payment puts the purchase back to waiting. */
    private void awaitPaymentOrDeadline(Instant deadline) {
        Duration left = Duration.ofMillis(Math.max(0, deadline.toEpochMilli() - Workflow.currentTimeMillis()));
        Promise<Void> timer = Workflow.newTimer(
                left,
                TimerOptions.newBuilder().setSummary("Pay deadline " + deadline).build());
        while (true) {
            Workflow.await(() -> timer.isCompleted() || decision != null);
            if (decision == null) {
                decision = Decision.EXPIRE;
            }
            if (decision != Decision.PAY) {
                return;
            }
            Workflow.await(() -> state.status() == PurchaseStatus.PAID || decision != Decision.PAY);
            if (state.status() == PurchaseStatus.PAID) {
                return;
            }
        }
    }

    @Override
    public PurchaseView status() {
        return state.view();
    }

    /** A repeat of the payment that is paid, or still being paid, is accepted. */
    @Override
    public void validatePay(PaymentRequest payment) {
        if (payment == null
                || payment.paymentId() == null
                || payment.paymentId().isBlank()) {
            throw PurchaseFailure.PAYMENT_REJECTED.refusal("a payment id is required");
        }
        if (state.status() == PurchaseStatus.PAID && payment.paymentId().equals(state.paymentId())) {
            return;
        }
        if (decision == Decision.PAY && payment.paymentId().equals(paymentInFlight)) {
            return;
        }
        boolean beforeDeadline = state.payDeadline() != null
                && Workflow.currentTimeMillis() < state.payDeadline().toEpochMilli();
        if (state.status() != PurchaseStatus.PENDING_PAYMENT || decision != null || !beforeDeadline) {
            throw PurchaseFailure.PAYMENT_REJECTED.refusal("purchase is " + state.status() + ", not awaiting payment");
        }
    }

    @Override
    public PurchaseView pay(PaymentRequest payment) {
        if (state.status() != PurchaseStatus.PAID && decision == Decision.PAY) {
            return awaitPaymentInFlight(payment);
        }
        if (state.status() == PurchaseStatus.PAID) {
            return state.view();
        }
        decision = Decision.PAY;
        paymentInFlight = payment.paymentId();
        try {
            orders("Mark the order paid").markPaid(state.purchaseId(), payment.paymentId());
        } catch (ActivityFailure failure) {
            decision = null;
            paymentInFlight = null;
            throw failure;
        }
        state.paid(payment.paymentId());
        return state.view();
    }

    /** The same payment again while the first is being marked paid: answers with its outcome. */
    private PurchaseView awaitPaymentInFlight(PaymentRequest payment) {
        Workflow.await(() -> state.status() == PurchaseStatus.PAID || decision != Decision.PAY);
        if (state.status() != PurchaseStatus.PAID) {
            throw PurchaseFailure.PAYMENT_REJECTED.failure("payment " + payment.paymentId() + " failed");
        }
        return state.view();
    }

    @Override
    public void validateCancel() {
        if (state.status() == PurchaseStatus.CANCELLED || decision == Decision.CANCEL) {
            return;
        }
        if (state.status().isFinal() || decision != null) {
            throw PurchaseFailure.CANCEL_REJECTED.refusal("purchase is " + state.status() + ", it cannot be cancelled");
        }
    }

    @Override
    public PurchaseView cancel() {
        decision = Decision.CANCEL;
        Workflow.await(() -> state.status().isFinal());
        return state.view();
    }

    private PurchaseView reject(Saga saga, String reason) {
        state.endAs(PurchaseStatus.REJECTED, reason);
        saga.compensate();
        state.transition(PurchaseStatus.REJECTED);
        return finish();
    }

    /** MySQL had no unit for the Redis hold: the hold becomes VOID, Redis stock stays as it is. */
    private PurchaseView voidHold(String reason) {
        reservations("Void the Redis hold, MySQL had no unit")
                .voidReservation(state.saleId(), state.purchaseId(), state.userId());
        return end(PurchaseStatus.REJECTED, reason);
    }

    /** Ends without compensating anything. */
    private PurchaseView end(PurchaseStatus outcome, String reason) {
        state.endAs(outcome, reason);
        state.transition(outcome);
        return finish();
    }

    private PurchaseView finish() {
        Workflow.await(Workflow::isEveryHandlerFinished);
        return state.view();
    }

    private void releaseReservation() {
        reservations("Release the Redis hold").releaseReservation(state.saleId(), state.purchaseId());
        countCompensation("release_reservation");
    }

    /** A rejection means MySQL refused the order, so there is none to cancel. */
    private void cancelOrder() {
        if (state.pendingOutcome() != PurchaseStatus.REJECTED) {
            orders("Cancel the order, unit back to MySQL").cancelOrder(state.purchaseId(), state.pendingOutcome());
            countCompensation("cancel_order");
        }
    }

    /**
     * Counts a compensation step once per purchase: workflow code runs once (the metrics scope is
     * silent on replay), whatever the activity retries did.
     */
    private static void countCompensation(String step) {
        Workflow.getMetricsScope()
                .tagged(Map.of("step", step))
                .counter(PurchaseMetrics.COMPENSATIONS)
                .inc(1);
    }

    private static Instant now() {
        return Instant.ofEpochMilli(Workflow.currentTimeMillis());
    }

    /**
     * A step on the way to PENDING_PAYMENT: an activity task before {@link #LOCAL_STEPS}, a local
     * activity retried in the worker without limit in its version 1, and from version 2 a local
     * activity that is handed to an activity task once its local attempts failed.
     */
    private <T, R> R firstStep(Class<T> activities, String summary, Function<T, R> step) {
        if (localSteps == Workflow.DEFAULT_VERSION) {
            return step.apply(activity(activities, summary));
        }
        if (localSteps < HANDED_OFF) {
            return step.apply(local(activities, summary, UNBOUNDED_LOCAL_ACTIVITY_OPTIONS));
        }
        try {
            return step.apply(local(activities, summary, LOCAL_ACTIVITY_OPTIONS));
        } catch (ActivityFailure failure) {
            if (!handedOff(failure)) {
                throw failure;
            }
            return step.apply(activity(activities, summary + ", after " + LOCAL_ATTEMPTS + " local attempts failed"));
        }
    }

    /**
     * Whether a local step that failed goes on as an activity task: every failure but a business
     * refusal (a non-retryable {@link PurchaseFailure}), which ends the step for good.
     */
    private static boolean handedOff(ActivityFailure failure) {
        return failure.getRetryState() != RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE;
    }

    private static <T> T local(Class<T> activities, String summary, LocalActivityOptions options) {
        return Workflow.newLocalActivityStub(
                activities,
                LocalActivityOptions.newBuilder(options).setSummary(summary).build());
    }

    private static <T> T activity(Class<T> activities, String summary) {
        return Workflow.newActivityStub(
                activities,
                ActivityOptions.newBuilder(ACTIVITY_OPTIONS).setSummary(summary).build());
    }

    private static ReservationActivities reservations(String summary) {
        return activity(ReservationActivities.class, summary);
    }

    private static OrderActivities orders(String summary) {
        return activity(OrderActivities.class, summary);
    }
}
