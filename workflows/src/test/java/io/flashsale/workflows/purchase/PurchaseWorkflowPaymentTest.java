package io.flashsale.workflows.purchase;

import static io.flashsale.workflows.purchase.PurchaseTestEnvironment.refusedAs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateHandle;
import org.junit.jupiter.api.Test;

/** Payment against the pay deadline, and every payment the workflow refuses. */
class PurchaseWorkflowPaymentTest extends PurchaseWorkflowTest {

    @Test
    void paysWithinTheDeadlineAndKeepsTheUnitSold() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

        PurchaseView paid = purchase.pay(new PaymentRequest("pay-1"));

        assertThat(paid.status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(paid.paymentId()).isEqualTo("pay-1");
        assertThat(temporal.result(purchase).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "markPaid pay-1");
        assertThat(temporal.statusAttribute(purchase)).isEqualTo("PAID");
    }

    @Test
    void expiresAndReleasesTheUnitWhenThePayDeadlinePasses() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

        PurchaseView expired = temporal.result(purchase);

        assertThat(expired.status()).isEqualTo(PurchaseStatus.EXPIRED);
        assertThat(expired.reason()).isEqualTo("pay deadline passed");
        assertThat(temporal.steps.calls())
                .containsExactly("confirmReservation", "createOrder", "cancelOrder EXPIRED", "releaseReservation");
        assertThat(temporal.statusAttribute(purchase)).isEqualTo("EXPIRED");
    }

    /** The purchase ended; the api answers such calls from the purchase's state. */
    @Test
    void takesNoUpdateOnceThePurchaseIsPaid() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        purchase.pay(new PaymentRequest("pay-1"));
        temporal.result(purchase);

        assertThat(temporal.payRefusal(purchase, new PaymentRequest("pay-1")))
                .isInstanceOf(WorkflowNotFoundException.class);
        assertThat(temporal.payRefusal(purchase, new PaymentRequest("pay-2")))
                .isInstanceOf(WorkflowNotFoundException.class);
        assertThat(temporal.cancelRefusal(purchase)).isInstanceOf(WorkflowNotFoundException.class);
        assertThat(purchase.status().paymentId()).isEqualTo("pay-1");
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "markPaid pay-1");
    }

    @Test
    void refusesAPaymentWithoutAnId() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

        assertThat(temporal.payRefusal(purchase, null)).is(refusedAs(PurchaseFailure.PAYMENT_REJECTED));
        assertThat(temporal.payRefusal(purchase, new PaymentRequest(null)))
                .is(refusedAs(PurchaseFailure.PAYMENT_REJECTED));
        assertThat(temporal.payRefusal(purchase, new PaymentRequest(" ")))
                .is(refusedAs(PurchaseFailure.PAYMENT_REJECTED));

        assertThat(purchase.status().status()).isEqualTo(PurchaseStatus.PENDING_PAYMENT);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder");
    }

    @Test
    void refusesAPaymentBeforeTheOrderIsWritten() {
        beforeLocalSteps();
        temporal.orders.writing.hold();
        PurchaseWorkflow purchase = temporal.purchase("ann");
        temporal.orders.writing.awaitEntered();

        Throwable refusal = temporal.payRefusal(purchase, new PaymentRequest("pay-1"));

        assertThat(refusal).is(refusedAs(PurchaseFailure.PAYMENT_REJECTED));
        temporal.orders.writing.release();
        temporal.awaitStatus(purchase, PurchaseStatus.PENDING_PAYMENT);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder");
    }

    @Test
    void answersTheSamePaymentWhileItIsRecordedWithItsOutcome() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.orders.paying.hold();
        WorkflowUpdateHandle<PurchaseView> first = temporal.payAccepted(purchase, "pay-1");
        temporal.orders.paying.awaitEntered();

        WorkflowUpdateHandle<PurchaseView> repeat = temporal.payAccepted(purchase, "pay-1");
        temporal.orders.paying.release();

        assertThat(first.getResult().status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(repeat.getResult().status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "markPaid pay-1");
    }

    @Test
    void refusesAnotherPaymentWhileOneIsRecorded() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.orders.paying.hold();
        WorkflowUpdateHandle<PurchaseView> first = temporal.payAccepted(purchase, "pay-1");
        temporal.orders.paying.awaitEntered();

        Throwable refusal = temporal.payRefusal(purchase, new PaymentRequest("pay-2"));
        temporal.orders.paying.release();

        assertThat(refusal).is(refusedAs(PurchaseFailure.PAYMENT_REJECTED));
        assertThat(first.getResult().paymentId()).isEqualTo("pay-1");
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "markPaid pay-1");
    }

    @Test
    void failsBothCallsOfARefusedPaymentAndTakesTheNextOne() {
        temporal.orders.refusePayment("pay-1", PurchaseFailure.PAYMENT_ID_IN_USE);
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.orders.paying.hold();
        WorkflowUpdateHandle<PurchaseView> first = temporal.payAccepted(purchase, "pay-1");
        temporal.orders.paying.awaitEntered();
        WorkflowUpdateHandle<PurchaseView> repeat = temporal.payAccepted(purchase, "pay-1");
        temporal.orders.paying.release();

        assertThat(catchThrowable(first::getResult)).is(refusedAs(PurchaseFailure.PAYMENT_ID_IN_USE));
        assertThat(catchThrowable(repeat::getResult)).is(refusedAs(PurchaseFailure.PAYMENT_REJECTED));
        assertThat(purchase.status().status()).isEqualTo(PurchaseStatus.PENDING_PAYMENT);

        assertThat(purchase.pay(new PaymentRequest("pay-2")).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(temporal.steps.calls())
                .containsExactly("confirmReservation", "createOrder", "markPaid pay-1", "markPaid pay-2");
    }

    @Test
    void staysPaidWhenAPaymentAcceptedInTimeIsRecordedAfterTheDeadline() {
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.skipToJustBeforeTheDeadline(purchase);
        temporal.orders.paying.hold();
        WorkflowUpdateHandle<PurchaseView> payment = temporal.payAccepted(purchase, "pay-1");
        temporal.awaitTheDeadline(purchase);
        temporal.orders.paying.release();

        assertThat(payment.getResult().status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(temporal.result(purchase).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "markPaid pay-1");
    }

    @Test
    void expiresWhenTheOnlyPaymentFailsAfterTheDeadline() {
        temporal.orders.refusePayment("pay-1", PurchaseFailure.PAYMENT_ID_IN_USE);
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.skipToJustBeforeTheDeadline(purchase);
        temporal.orders.paying.hold();
        WorkflowUpdateHandle<PurchaseView> payment = temporal.payAccepted(purchase, "pay-1");
        temporal.awaitTheDeadline(purchase);
        temporal.orders.paying.release();

        assertThat(catchThrowable(payment::getResult)).is(refusedAs(PurchaseFailure.PAYMENT_ID_IN_USE));
        assertThat(temporal.result(purchase).status()).isEqualTo(PurchaseStatus.EXPIRED);
        assertThat(temporal.steps.calls())
                .containsExactly(
                        "confirmReservation",
                        "createOrder",
                        "markPaid pay-1",
                        "cancelOrder EXPIRED",
                        "releaseReservation");
    }

    @Test
    void refusesAPaymentWhileTheUnitGoesBackAfterTheDeadline() {
        temporal.orders.cancelling.hold();
        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");
        temporal.passTheDeadline();
        temporal.orders.cancelling.awaitEntered();

        Throwable refusal = temporal.payRefusal(purchase, new PaymentRequest("pay-1"));
        temporal.orders.cancelling.release();

        assertThat(refusal).is(refusedAs(PurchaseFailure.PAYMENT_REJECTED));
        assertThat(temporal.result(purchase).status()).isEqualTo(PurchaseStatus.EXPIRED);
        assertThat(temporal.steps.calls())
                .containsExactly("confirmReservation", "createOrder", "cancelOrder EXPIRED", "releaseReservation");
    }

    @Test
    void retriesAStoreFailureUntilTheStepPasses() {
        temporal.reservations.failConfirmations(2);

        PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

        assertThat(purchase.pay(new PaymentRequest("pay-1")).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(temporal.steps.calls())
                .containsExactly(
                        "confirmReservation",
                        "confirmReservation",
                        "confirmReservation",
                        "createOrder",
                        "markPaid pay-1");
    }
}
