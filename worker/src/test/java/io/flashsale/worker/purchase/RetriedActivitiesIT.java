package io.flashsale.worker.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.HoldState;
import io.flashsale.stores.testing.Race;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import io.flashsale.workflows.purchase.PurchaseWorkflow;
import io.flashsale.workflows.purchase.ReservationActivities;
import io.temporal.activity.Activity;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Invariant I5 under retries: every activity runs for real, commits, and then its first attempt
 * fails, so Temporal runs it again. The second run must change nothing.
 */
class RetriedActivitiesIT extends WorkflowIntegrationTest {

    FailAfterCommit attempts;

    /** The production starter and task queue: this test environment's worker is the flaky one. */
    @Override
    protected TestWorkflowEnvironment startTemporal() {
        attempts = new FailAfterCommit();
        return TemporalTestEnvironment.start(
                new FlakyReservations(reservations, attempts), new FlakyOrders(orders, attempts));
    }

    @Test
    void expiryWithEveryStepRetriedGivesTheUnitBackOnce() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "alice");
        startAndAwaitPayment(request);

        assertThat(result(request).status()).isEqualTo(PurchaseStatus.EXPIRED);

        assertThat(attempts.results("confirmReservation")).containsExactly(true, true);
        assertThat(attempts.results("createOrder")).hasSize(2).containsOnly(orderId(request));
        assertThat(attempts.results("cancelOrder")).containsExactly(true, false);
        assertThat(attempts.results("releaseReservation")).containsExactly(true, false);
        assertThat(fixture.orders(sale)).isEqualTo(1);
        assertThat(fixture.orderStatus(request)).contains("EXPIRED");
        assertThat(fixture.available(sale)).isEqualTo(3);
        assertThat(fixture.redisStock(sale)).isEqualTo(3);
        assertThat(fixture.hold(request)).contains(HoldState.RELEASED);
        keep(request, "retried-steps-expired");
    }

    @Test
    void paymentRetriedAfterCommitStaysPaid() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "bob");
        PurchaseWorkflow workflow = startAndAwaitPayment(request);

        assertThat(workflow.pay(new PaymentRequest("pay-bob")).status()).isEqualTo(PurchaseStatus.PAID);

        assertThat(result(request).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(attempts.results("markPaid")).containsExactly("done", "done");
        assertThat(fixture.orders(sale)).isEqualTo(1);
        assertThat(fixture.orderStatus(request)).contains("PAID");
        assertThat(fixture.available(sale)).isEqualTo(2);
        assertThat(fixture.redisStock(sale)).isEqualTo(2);
        assertThat(fixture.hold(request)).contains(HoldState.HELD);
        keep(request, "retried-payment-paid");
    }

    /** Two buyer cancels and the pay deadline (time skips past it) arrive together. */
    @Test
    void cancelsRacingTheDeadlineGiveTheUnitBackOnce() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "carol");
        PurchaseWorkflow workflow = startAndAwaitPayment(request);

        List<Race.Outcome<PurchaseView>> outcomes =
                Race.run(List.of(workflow::cancel, workflow::cancel, () -> resultAfterTheDeadline(request)));

        assertOneUnitBack(request, outcomes);
    }

    /** The timer has fired but the workflow may not have seen it yet when the two cancels arrive. */
    @Test
    void cancelsRightAfterTheDeadlineGiveTheUnitBackOnce() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "dave");
        PurchaseWorkflow workflow = startAndAwaitPayment(request);
        env.sleep(Duration.ofSeconds(request.payTimeoutSeconds()));

        List<Race.Outcome<PurchaseView>> outcomes =
                Race.run(List.of(workflow::cancel, workflow::cancel, () -> result(request)));

        assertOneUnitBack(request, outcomes);
    }

    /**
     * Whichever of cancel or deadline won, the unit came back once: both cancels succeed when cancel
     * won and both are refused when the deadline did.
     */
    private void assertOneUnitBack(PurchaseRequest request, List<Race.Outcome<PurchaseView>> outcomes) {
        PurchaseStatus end = outcomes.get(2).value().status();
        assertThat(end).isIn(PurchaseStatus.CANCELLED, PurchaseStatus.EXPIRED);
        assertThat(outcomes.subList(0, 2))
                .allSatisfy(cancel -> assertThat(cancel.failure() == null).isEqualTo(end == PurchaseStatus.CANCELLED));
        assertThat(attempts.results("cancelOrder")).containsExactly(true, false);
        assertThat(attempts.results("releaseReservation")).containsExactly(true, false);
        assertThat(fixture.orders(sale)).isEqualTo(1);
        assertThat(fixture.orderStatus(request)).contains(end.name());
        assertThat(fixture.available(sale)).isEqualTo(3);
        assertThat(fixture.redisStock(sale)).isEqualTo(3);
        assertThat(fixture.hold(request)).contains(HoldState.RELEASED);
    }

    private PurchaseWorkflow startAndAwaitPayment(PurchaseRequest request) {
        assertThat(new PurchaseStarter(env.getWorkflowClient()).start(request)).isTrue();
        return awaitPayment(request);
    }

    private PurchaseView resultAfterTheDeadline(PurchaseRequest request) {
        env.sleep(Duration.ofSeconds(request.payTimeoutSeconds()));
        return result(request);
    }

    private long orderId(PurchaseRequest request) {
        return jdbc.sql("SELECT id FROM orders WHERE purchase_id = ?")
                .param(request.purchaseId())
                .query(Long.class)
                .single();
    }

    /** Runs the real call, records what it returned, and fails the activity's first attempt anyway. */
    static final class FailAfterCommit {

        private final Map<String, List<Object>> results = new ConcurrentHashMap<>();

        <T> T call(String method, Supplier<T> real) {
            T result = real.get();
            results.computeIfAbsent(method, m -> new CopyOnWriteArrayList<>()).add(result);
            if (Activity.getExecutionContext().getInfo().getAttempt() == 1) {
                throw new IllegalStateException(method + " committed, then the worker lost the answer");
            }
            return result;
        }

        /** What each attempt's real call returned, in attempt order. */
        List<Object> results(String method) {
            return results.getOrDefault(method, List.of());
        }
    }

    record FlakyReservations(ReservationActivities real, FailAfterCommit attempts) implements ReservationActivities {

        @Override
        public boolean confirmReservation(String saleId, String purchaseId, String userId) {
            return attempts.call("confirmReservation", () -> real.confirmReservation(saleId, purchaseId, userId));
        }

        @Override
        public boolean releaseReservation(String saleId, String purchaseId) {
            return attempts.call("releaseReservation", () -> real.releaseReservation(saleId, purchaseId));
        }

        @Override
        public boolean voidReservation(String saleId, String purchaseId, String userId) {
            return attempts.call("voidReservation", () -> real.voidReservation(saleId, purchaseId, userId));
        }
    }

    record FlakyOrders(OrderActivities real, FailAfterCommit attempts) implements OrderActivities {

        @Override
        public long createOrder(NewOrder order) {
            return attempts.call("createOrder", () -> real.createOrder(order));
        }

        @Override
        public void markPaid(String purchaseId, String paymentId) {
            attempts.call("markPaid", () -> {
                real.markPaid(purchaseId, paymentId);
                return "done";
            });
        }

        @Override
        public boolean cancelOrder(String purchaseId, PurchaseStatus outcome) {
            return attempts.call("cancelOrder", () -> real.cancelOrder(purchaseId, outcome));
        }
    }
}
