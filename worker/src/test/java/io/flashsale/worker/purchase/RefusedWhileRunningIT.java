package io.flashsale.worker.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.HoldState;
import io.flashsale.workflows.purchase.PurchaseFailure;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import io.temporal.client.WorkflowUpdateHandle;
import org.junit.jupiter.api.Test;

/**
 * Pay and cancel the workflow's validators refuse, each sent while the purchase still runs (one of
 * its MySQL steps is held): the refusal comes from the validator, before the workflow accepts the
 * Update, never from Temporal refusing an Update to a finished workflow.
 */
class RefusedWhileRunningIT extends HeldStepsTest {

    private static final PurchaseFailure PAYMENT_REJECTED = PurchaseFailure.PAYMENT_REJECTED;
    private static final PurchaseFailure CANCEL_REJECTED = PurchaseFailure.CANCEL_REJECTED;

    @Test
    void paymentWithoutIdIsRefusedAndChangesNothing() {
        PurchaseRequest request = startAndAwaitPayment("erin");

        assertThat(updates(request).payRefusal(" ")).isEqualTo(PAYMENT_REJECTED);

        assertThat(status(request).status()).isEqualTo(PurchaseStatus.PENDING_PAYMENT);
        assertThat(fixture.orderStatus(request)).contains("PENDING_PAYMENT");
    }

    @Test
    void paymentBeforeTheOrderIsWrittenIsRefused() {
        mysql.orders.close();
        PurchaseRequest request = start("olga");
        mysql.orders.arrived();

        assertThat(updates(request).payRefusal("pay-olga")).isEqualTo(PAYMENT_REJECTED);

        assertThat(status(request).status()).isEqualTo(PurchaseStatus.RESERVED);
        mysql.orders.open();
        assertThat(awaitPayment(request).status().paymentId()).isNull();
    }

    @Test
    void secondPaymentIdWhileTheFirstIsRecordedIsRefusedAndTheFirstCompletes() {
        PurchaseRequest request = startAndAwaitPayment("frank");
        mysql.payments.close();
        WorkflowUpdateHandle<PurchaseView> first = updates(request).pay("pay-frank");
        mysql.payments.arrived();

        assertThat(updates(request).payRefusal("pay-other")).isEqualTo(PAYMENT_REJECTED);

        assertThat(running(request)).isTrue();
        mysql.payments.open();
        assertThat(first.getResult().paymentId()).isEqualTo("pay-frank");
        assertThat(result(request).paymentId()).isEqualTo("pay-frank");
        assertThat(fixture.orderStatus(request)).contains("PAID");
        assertThat(fixture.available(sale)).isEqualTo(2);
    }

    @Test
    void cancelWhilePayingIsRefusedAndThePaymentCompletes() {
        PurchaseRequest request = startAndAwaitPayment("gus");
        mysql.payments.close();
        WorkflowUpdateHandle<PurchaseView> payment = updates(request).pay("pay-gus");
        mysql.payments.arrived();

        assertThat(updates(request).cancelRefusal()).isEqualTo(CANCEL_REJECTED);

        assertThat(running(request)).isTrue();
        mysql.payments.open();
        assertThat(payment.getResult().status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(result(request).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(fixture.orderStatus(request)).contains("PAID");
        assertThat(fixture.available(sale)).isEqualTo(2);
        assertThat(fixture.hold(request)).contains(HoldState.HELD);
    }

    @Test
    void paymentWhileACancelGivesTheUnitBackIsRefused() {
        PurchaseRequest request = startAndAwaitPayment("hugo");
        mysql.cancels.close();
        WorkflowUpdateHandle<PurchaseView> cancel = updates(request).cancel();
        mysql.cancels.arrived();

        assertThat(updates(request).payRefusal("pay-hugo")).isEqualTo(PAYMENT_REJECTED);

        assertThat(status(request).status()).isEqualTo(PurchaseStatus.PENDING_PAYMENT);
        mysql.cancels.open();
        assertThat(cancel.getResult().status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(fixture.orderStatus(request)).contains("CANCELLED");
        assertThat(fixture.available(sale)).isEqualTo(3);
        assertThat(fixture.redisStock(sale)).isEqualTo(3);
    }

    @Test
    void cancelAgainWhileTheFirstGivesTheUnitBackIsAcceptedAndGivesItBackOnce() throws Exception {
        PurchaseRequest request = startAndAwaitPayment("ines");
        mysql.cancels.close();
        WorkflowUpdateHandle<PurchaseView> first = updates(request).cancel();
        mysql.cancels.arrived();

        WorkflowUpdateHandle<PurchaseView> again = updates(request).cancel();

        mysql.cancels.open();
        assertThat(first.getResult().status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(again.getResult().status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(fixture.available(sale)).isEqualTo(3);
        assertThat(fixture.redisStock(sale)).isEqualTo(3);
        keep(request, "cancelled-twice");
    }
}
