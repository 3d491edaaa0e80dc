package io.flashsale.workflows.purchase;

import static io.flashsale.workflows.purchase.PurchaseTestEnvironment.refusedAs;
import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateHandle;
import org.junit.jupiter.api.Test;

/** Cancel against payment and the deadline: the workflow decides once, the unit comes back once. */
class PurchaseWorkflowCancelTest extends PurchaseWorkflowTest {

    @Test
    void cancelsAndGivesTheUnitBackToMySqlBeforeRedis() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

        PurchaseView cancelled = purchase.cancel();

        assertThat(cancelled.status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(cancelled.reason()).isEqualTo("cancelled by the buyer");
        assertThat(temporal.result(purchase).status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(temporal.steps.calls())
                .containsExactly("confirmReservation", "createOrder", "cancelOrder CANCELLED", "releaseReservation");
        assertThat(temporal.statusAttribute(purchase)).isEqualTo("CANCELLED");
    }

    @Test
    void answersASecondCancelWithTheSameOutcomeAndGivesTheUnitBackOnce() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.orders.cancelling.hold();
        WorkflowUpdateHandle<PurchaseView> first = temporal.cancelAccepted(purchase);
        temporal.orders.cancelling.awaitEntered();

        WorkflowUpdateHandle<PurchaseView> second = temporal.cancelAccepted(purchase);
        temporal.orders.cancelling.release();

        assertThat(first.getResult().status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(second.getResult().status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(temporal.steps.calls())
                .containsExactly("confirmReservation", "createOrder", "cancelOrder CANCELLED", "releaseReservation");
    }

    /** The purchase ended; the api answers a repeated cancel from the purchase's state. */
    @Test
    void takesNoUpdateOnceThePurchaseIsCancelled() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        purchase.cancel();

        assertThat(temporal.cancelRefusal(purchase)).isInstanceOf(WorkflowNotFoundException.class);
        assertThat(temporal.payRefusal(purchase, new PaymentRequest("pay-1")))
                .isInstanceOf(WorkflowNotFoundException.class);
        assertThat(purchase.status().status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(temporal.steps.calls())
                .containsExactly("confirmReservation", "createOrder", "cancelOrder CANCELLED", "releaseReservation");
    }

    @Test
    void refusesToCancelWhileAPaymentIsRecorded() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.orders.paying.hold();
        WorkflowUpdateHandle<PurchaseView> payment = temporal.payAccepted(purchase, "pay-1");
        temporal.orders.paying.awaitEntered();

        Throwable refusal = temporal.cancelRefusal(purchase);
        temporal.orders.paying.release();

        assertThat(refusal).is(refusedAs(PurchaseFailure.CANCEL_REJECTED));
        assertThat(payment.getResult().status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(temporal.result(purchase).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "markPaid pay-1");
    }

    @Test
    void refusesAPaymentOnceTheBuyerCancelled() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.orders.cancelling.hold();
        WorkflowUpdateHandle<PurchaseView> cancel = temporal.cancelAccepted(purchase);
        temporal.orders.cancelling.awaitEntered();

        Throwable refusal = temporal.payRefusal(purchase, new PaymentRequest("pay-1"));
        temporal.orders.cancelling.release();

        assertThat(refusal).is(refusedAs(PurchaseFailure.PAYMENT_REJECTED));
        assertThat(cancel.getResult().status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(temporal.steps.calls())
                .containsExactly("confirmReservation", "createOrder", "cancelOrder CANCELLED", "releaseReservation");
    }

    @Test
    void refusesToCancelWhileTheUnitGoesBackAfterTheDeadline() {
        temporal.orders.cancelling.hold();
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.passTheDeadline();
        temporal.orders.cancelling.awaitEntered();

        Throwable refusal = temporal.cancelRefusal(purchase);
        temporal.orders.cancelling.release();

        assertThat(refusal).is(refusedAs(PurchaseFailure.CANCEL_REJECTED));
        assertThat(temporal.result(purchase).status()).isEqualTo(PurchaseStatus.EXPIRED);
        assertThat(temporal.steps.calls())
                .containsExactly("confirmReservation", "createOrder", "cancelOrder EXPIRED", "releaseReservation");
    }

    @Test
    void cancelsBeforeTheOrderIsWrittenAndUndoesItOnceItIs() {
        beforeLocalSteps();
        temporal.orders.writing.hold();
        PurchaseWorkflow purchase = temporal.purchase("ann");
        temporal.orders.writing.awaitEntered();

        WorkflowUpdateHandle<PurchaseView> cancel = temporal.cancelAccepted(purchase);
        temporal.orders.writing.release();

        assertThat(cancel.getResult().status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(temporal.steps.calls())
                .containsExactly("confirmReservation", "createOrder", "cancelOrder CANCELLED", "releaseReservation");
    }
}
