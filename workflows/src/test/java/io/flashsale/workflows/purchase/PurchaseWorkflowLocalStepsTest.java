package io.flashsale.workflows.purchase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowUpdateStage;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.internal.history.LocalActivityMarkerUtils;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Both branches of the {@code local-steps} marker, read from the histories: new purchases confirm
 * the hold and write the order as local activities (one workflow task to PENDING_PAYMENT, no
 * activity task, each step a marker with its summary and the attempt that ended it), purchases
 * started before run both as activity tasks. And what a local step changes for a buyer: an Update
 * sent while it runs waits for it.
 */
class PurchaseWorkflowLocalStepsTest extends PurchaseWorkflowTest {

    /** The marker fields of the SDK's local activity markers (its internal layout, read-only here). */
    private record Step(String type, int attempt, String summary, boolean failed) {}

    @Test
    void newPurchasesReachTheOrderInOneWorkflowTaskWithoutActivityTasks() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

        List<HistoryEvent> events = temporal.history(purchase).getEvents();
        List<HistoryEvent> toTheOrder = events.subList(0, indexOf(events, EventType.EVENT_TYPE_TIMER_STARTED));
        assertThat(count(toTheOrder, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED))
                .isEqualTo(1);
        assertThat(count(toTheOrder, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED))
                .isZero();
        assertThat(steps(temporal.history(purchase)))
                .containsExactly(
                        new Step("ConfirmReservation", 1, "Confirm the Redis hold", false),
                        new Step("CreateOrder", 1, "Create the order in MySQL", false));
    }

    @Test
    void purchasesStartedBeforeLocalStepsRunThemAsActivityTasks() {
        beforeLocalSteps();
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

        WorkflowExecutionHistory history = temporal.history(purchase);
        assertThat(steps(history)).isEmpty();
        assertThat(history.getEvents().stream()
                        .filter(event -> event.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
                        .map(event -> event.getActivityTaskScheduledEventAttributes()
                                .getActivityType()
                                .getName()))
                .containsExactly("ConfirmReservation", "CreateOrder");
    }

    /**
     * Version 2: three quick attempts in the worker (backoff 0.2, 0.4 s) and one marker with the
     * last one's failure; then the step is an activity task, whose retries (two here) leave no
     * marker and no timer in the history.
     */
    @Test
    void aLocalStepThatKeepsFailingIsHandedToAnActivityTask() {
        temporal.reservations.failConfirmations(4);

        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

        assertThat(temporal.steps.calls())
                .containsExactly(
                        "confirmReservation",
                        "confirmReservation",
                        "confirmReservation",
                        "confirmReservation",
                        "confirmReservation",
                        "createOrder");
        WorkflowExecutionHistory history = temporal.history(purchase);
        assertThat(steps(history))
                .containsExactly(
                        new Step("ConfirmReservation", 3, "Confirm the Redis hold", true),
                        new Step("CreateOrder", 1, "Create the order in MySQL", false));
        assertThat(activityTasks(history))
                .containsExactly(
                        tuple("ConfirmReservation", "Confirm the Redis hold, after 3 local attempts failed", 2));
        assertThat(count(history.getEvents(), EventType.EVENT_TYPE_TIMER_STARTED))
                .as("only the pay deadline")
                .isOne();
    }

    /** A business refusal ends a local step for good: it is not tried again as an activity task. */
    @Test
    void aRefusedLocalStepIsNotHandedToAnActivityTask() {
        temporal.orders.refuseOrders(PurchaseFailure.ALREADY_ORDERED);

        PurchaseWorkflow purchase = temporal.purchase("ann");

        assertThat(temporal.result(purchase).status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "releaseReservation");
        assertThat(activityTasks(temporal.history(purchase)))
                .extracting(task -> task.toList().get(0))
                .containsExactly("ReleaseReservation");
    }

    /**
     * Version 1 (purchases started on it): four quick attempts in the worker (backoff 0.2, 0.4,
     * 0.8 s), then each retry after a workflow timer (1.6 s and more): the attempts that failed into
     * a timer and the one that passed are markers, numbered on, and no activity task is scheduled.
     */
    @Test
    void onVersionOneAFailingLocalStepIsRetriedLocallyWithItsAttemptsInTheMarkers() {
        onLocalSteps(1);
        temporal.reservations.failConfirmations(5);

        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

        assertThat(temporal.steps.calls())
                .filteredOn("confirmReservation"::equals)
                .hasSize(6);
        assertThat(steps(temporal.history(purchase)))
                .filteredOn(step -> step.type().equals("ConfirmReservation"))
                .extracting(Step::attempt, Step::failed)
                .containsExactly(tuple(4, true), tuple(5, true), tuple(6, false));
        assertThat(activityTasks(temporal.history(purchase))).isEmpty();
    }

    /** Delivered once the step ends: the payment then finds the order and is accepted. */
    @Test
    void aPaymentSentWhileTheOrderIsWrittenWaitsForItAndIsAccepted() throws Exception {
        temporal.orders.writing.hold();
        PurchaseWorkflow purchase = temporal.purchase("ann");
        temporal.orders.writing.awaitEntered();

        CompletableFuture<PurchaseView> payment = CompletableFuture.supplyAsync(() -> WorkflowStub.fromTyped(purchase)
                .startUpdate("pay", WorkflowUpdateStage.COMPLETED, PurchaseView.class, new PaymentRequest("pay-1"))
                .getResult());
        Thread.sleep(500);
        assertThat(payment).as("answered while the order is written").isNotDone();
        temporal.orders.writing.release();

        assertThat(payment.get(10, TimeUnit.SECONDS).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "markPaid pay-1");
    }

    private static List<Step> steps(WorkflowExecutionHistory history) {
        return history.getEvents().stream()
                .filter(event -> event.getEventType() == EventType.EVENT_TYPE_MARKER_RECORDED)
                .filter(event -> event.getMarkerRecordedEventAttributes()
                        .getMarkerName()
                        .equals(LocalActivityMarkerUtils.MARKER_NAME))
                .map(event -> new Step(
                        LocalActivityMarkerUtils.getActivityTypeName(event.getMarkerRecordedEventAttributes()),
                        LocalActivityMarkerUtils.getMetadata(event.getMarkerRecordedEventAttributes())
                                .getAttempt(),
                        DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
                                event.getUserMetadata().getSummary(), String.class, String.class),
                        event.getMarkerRecordedEventAttributes().hasFailure()))
                .toList();
    }

    /** The activity tasks the history scheduled: type, summary and the attempt that ended each. */
    private static List<Tuple> activityTasks(WorkflowExecutionHistory history) {
        List<HistoryEvent> events = history.getEvents();
        return events.stream()
                .filter(event -> event.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
                .map(scheduled -> tuple(
                        scheduled
                                .getActivityTaskScheduledEventAttributes()
                                .getActivityType()
                                .getName(),
                        DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
                                scheduled.getUserMetadata().getSummary(), String.class, String.class),
                        events.stream()
                                .filter(event -> event.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED)
                                .map(HistoryEvent::getActivityTaskStartedEventAttributes)
                                .filter(started -> started.getScheduledEventId() == scheduled.getEventId())
                                .map(started -> started.getAttempt())
                                .findFirst()
                                .orElse(0)))
                .toList();
    }

    private static int indexOf(List<HistoryEvent> events, EventType type) {
        return events.indexOf(events.stream()
                .filter(event -> event.getEventType() == type)
                .findFirst()
                .orElseThrow());
    }

    private static long count(List<HistoryEvent> events, EventType type) {
        Predicate<HistoryEvent> ofType = event -> event.getEventType() == type;
        return events.stream().filter(ofType).count();
    }
}
