package io.flashsale.worker.purchase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.flashsale.stores.admission.HoldState;
import io.flashsale.workflows.PurchaseSearchAttributes;
import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import io.flashsale.workflows.purchase.PurchaseWorkflow;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The purchase saga on a time-skipping Temporal with the real activities on MariaDB and Redis: the
 * pay timer fires instantly, everything else is real.
 */
class PurchaseWorkflowIT extends WorkflowIntegrationTest {

    @Test
    void paidInTimeKeepsTheUnitSold() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "alice");
        PurchaseWorkflow workflow = startAndAwaitPayment(request);

        PurchaseView paid = workflow.pay(new PaymentRequest("pay-alice"));

        assertThat(paid.status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(paid.paymentId()).isEqualTo("pay-alice");
        assertThat(result(request).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(fixture.orderStatus(request)).contains("PAID");
        assertThat(fixture.available(sale)).isEqualTo(2);
        assertThat(fixture.redisStock(sale)).isEqualTo(2);
        assertThat(fixture.hold(request)).contains(HoldState.HELD);
        assertThat(searchAttribute(request)).isEqualTo("PAID");
        keep(request, "paid");
    }

    @Test
    void deadlinePassedExpiresAndGivesTheUnitBackOnce() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "bob");
        startAndAwaitPayment(request);

        PurchaseView expired = result(request);

        assertThat(expired.status()).isEqualTo(PurchaseStatus.EXPIRED);
        assertThat(fixture.orderStatus(request)).contains("EXPIRED");
        assertThat(fixture.available(sale)).isEqualTo(3);
        assertThat(fixture.redisStock(sale)).isEqualTo(3);
        assertThat(fixture.hold(request)).contains(HoldState.RELEASED);
        assertThat(searchAttribute(request)).isEqualTo("EXPIRED");
        keep(request, "expired");
    }

    @Test
    void cancelGivesTheUnitBack() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "carol");
        PurchaseWorkflow workflow = startAndAwaitPayment(request);

        PurchaseView cancelled = workflow.cancel();

        assertThat(cancelled.status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(result(request).status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(fixture.orderStatus(request)).contains("CANCELLED");
        assertThat(fixture.available(sale)).isEqualTo(3);
        assertThat(fixture.redisStock(sale)).isEqualTo(3);
        assertThat(fixture.hold(request)).contains(HoldState.RELEASED);
        keep(request, "cancelled");
    }

    @Test
    void soldOutInMySqlRejectsAndVoidsTheRedisHoldWithoutGivingAUnitBack() throws Exception {
        jdbc.sql("UPDATE sales SET available = 0 WHERE id = ?").param(sale.id()).update();
        PurchaseRequest request = fixture.admit(sale, "gina");
        assertThat(fixture.redisStock(sale)).isEqualTo(2);

        new PurchaseStarter(env.getWorkflowClient()).start(request);
        PurchaseView rejected = result(request);

        assertThat(rejected.status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(rejected.reason()).contains("SOLD_OUT");
        assertThat(fixture.orderStatus(request)).isEmpty();
        assertThat(fixture.hold(request)).contains(HoldState.VOID);
        assertThat(fixture.redisStock(sale)).isEqualTo(2);
        assertThat(fixture.available(sale)).isZero();
        keep(request, "rejected-sold-out");
        PurchaseRequest again = fixture.admit(sale, "gina");
        assertThat(new PurchaseStarter(env.getWorkflowClient()).start(again))
                .as("the rejected buyer's new admission runs")
                .isTrue();
        assertThat(result(again).status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(fixture.hold(again)).contains(HoldState.VOID);
        assertThat(fixture.redisStock(sale)).isEqualTo(1);
    }

    /**
     * Retention removed the PAID purchase's workflow (here: a fresh Temporal that never saw it); a new
     * run of the purchase must not adopt the ended order, nor give its unit back.
     */
    @Test
    void newRunAfterRetentionDoesNotAdoptTheEndedOrder() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "kate");
        startAndAwaitPayment(request).pay(new PaymentRequest("pay-kate"));
        assertThat(result(request).status()).isEqualTo(PurchaseStatus.PAID);
        env.close();
        env = startTemporal();

        assertThat(new PurchaseStarter(env.getWorkflowClient()).start(request)).isTrue();
        PurchaseView again = result(request);

        assertThat(again.status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(again.reason()).contains("ORDER_ENDED");
        assertThat(fixture.orderStatus(request)).contains("PAID");
        assertThat(fixture.hold(request)).contains(HoldState.HELD);
        assertThat(fixture.available(sale)).isEqualTo(2);
        assertThat(fixture.redisStock(sale)).isEqualTo(2);
        assertThat(fixture.orders(sale)).isEqualTo(1);
        keep(request, "rejected-order-ended");
    }

    /** A write MySQL refuses for good (user id longer than its column) is not retried forever. */
    @Test
    void orderMySqlRefusesForGoodRejectsAndGivesTheUnitBackOnce() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "u".repeat(65));
        new PurchaseStarter(env.getWorkflowClient()).start(request);
        PurchaseWorkflow workflow =
                env.getWorkflowClient().newWorkflowStub(PurchaseWorkflow.class, request.purchaseId());

        await().atMost(Duration.ofSeconds(20))
                .until(() -> workflow.status().status().isFinal());

        assertThat(workflow.status().status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(workflow.status().reason()).contains("ORDER_INVALID");
        assertThat(fixture.orders(sale)).isZero();
        assertThat(fixture.available(sale)).isEqualTo(3);
        assertThat(fixture.hold(request)).contains(HoldState.RELEASED);
        assertThat(fixture.redisStock(sale)).isEqualTo(3);
        keep(request, "rejected-order-invalid");
    }

    /**
     * A payment id MySQL refuses for good fails the payment; the purchase keeps awaiting payment, and
     * a later payment completes it.
     */
    @Test
    void paymentMySqlRefusesForGoodIsRefusedAndALaterPaymentCompletesThePurchase() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "liam");
        PurchaseWorkflow workflow = startAndAwaitPayment(request);

        CompletableFuture<PurchaseView> payment =
                CompletableFuture.supplyAsync(() -> workflow.pay(new PaymentRequest("p".repeat(65))));

        assertThat(catchThrowable(() -> payment.get(20, TimeUnit.SECONDS)))
                .hasRootCauseInstanceOf(ApplicationFailure.class)
                .rootCause()
                .hasMessageContaining("ORDER_INVALID");
        assertThat(workflow.status().status()).isEqualTo(PurchaseStatus.PENDING_PAYMENT);
        assertThat(fixture.orderStatus(request)).contains("PENDING_PAYMENT");

        assertThat(workflow.pay(new PaymentRequest("pay-liam")).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(result(request).paymentId()).isEqualTo("pay-liam");
        assertThat(fixture.orderStatus(request)).contains("PAID");
        keep(request, "payment-failed-then-paid");
    }

    @Test
    void secondStartOfTheSamePurchaseIsRefusedByTemporal() {
        PurchaseRequest request = fixture.admit(sale, "hank");
        PurchaseStarter starter = new PurchaseStarter(env.getWorkflowClient());

        assertThat(starter.start(request)).isTrue();
        assertThat(starter.start(request)).isFalse();
        assertThat(result(request).status()).isEqualTo(PurchaseStatus.EXPIRED);
        assertThat(starter.start(request)).isFalse();
        assertThat(fixture.orders(sale)).isEqualTo(1);
    }

    @Test
    void operatorsCanReadThePurchaseInTheWebUi() {
        PurchaseRequest request = fixture.admit(sale, "judy");
        PurchaseWorkflow workflow = startAndAwaitPayment(request);
        WebUiView ui = WebUiView.of(env.getWorkflowClient(), request.purchaseId());

        assertThat(ui.staticSummary()).isEqualTo("Purchase of sale " + sale.id() + " by user judy");
        assertThat(ui.staticDetails()).contains(request.purchaseId());
        assertThat(ui.searchAttributes())
                .containsEntry("SaleId", sale.id())
                .containsEntry("UserId", "judy")
                .containsEntry("PurchaseStatus", "PENDING_PAYMENT");
        assertThat(ui.currentDetails()).contains("PENDING_PAYMENT").contains("Pay deadline");
        assertThat(ui.activitySummaries()).containsExactly("Confirm the Redis hold", "Create the order in MySQL");
        assertThat(ui.timerSummaries()).singleElement().asString().startsWith("Pay deadline");

        workflow.pay(new PaymentRequest("pay-judy"));
        WebUiView paid = WebUiView.of(env.getWorkflowClient(), request.purchaseId());
        assertThat(paid.searchAttributes()).containsEntry("PurchaseStatus", "PAID");
        assertThat(paid.activitySummaries()).endsWith("Mark the order paid");
        assertThat(workflow.status().paymentId()).isEqualTo("pay-judy");
    }

    private PurchaseWorkflow startAndAwaitPayment(PurchaseRequest request) {
        new PurchaseStarter(env.getWorkflowClient()).start(request);
        return awaitPayment(request);
    }

    private String searchAttribute(PurchaseRequest request) {
        return Describe.searchAttribute(env.getWorkflowClient(), request.purchaseId(), PurchaseSearchAttributes.STATUS);
    }
}
