package io.flashsale.workflows.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the status query answers and what the Web UI lists, at every step of a purchase. */
class PurchaseWorkflowStatusTest extends PurchaseWorkflowTest {

    @Test
    void answersTheStatusQueryAtEveryStep() {
        beforeLocalSteps();
        temporal.orders.writing.hold();
        PurchaseWorkflow purchase = temporal.purchase("ann");
        temporal.orders.writing.awaitEntered();

        PurchaseView reserved = purchase.status();
        assertThat(reserved.purchaseId()).isEqualTo(PurchaseRequest.purchaseId(PurchaseTestEnvironment.SALE, "ann"));
        assertThat(reserved.saleId()).isEqualTo(PurchaseTestEnvironment.SALE);
        assertThat(reserved.userId()).isEqualTo("ann");
        assertThat(reserved.status()).isEqualTo(PurchaseStatus.RESERVED);
        assertThat(reserved.orderId()).isNull();
        assertThat(reserved.payDeadline()).isNull();

        temporal.orders.writing.release();
        temporal.awaitStatus(purchase, PurchaseStatus.PENDING_PAYMENT);
        PurchaseView pending = purchase.status();
        assertThat(pending.orderId()).isEqualTo(FakeOrders.ORDER_ID);
        assertThat(pending.payDeadline()).isNotNull();
        assertThat(pending.paymentId()).isNull();

        purchase.pay(new PaymentRequest("pay-1"));
        PurchaseView paid = purchase.status();
        assertThat(paid.status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(paid.paymentId()).isEqualTo("pay-1");
        assertThat(paid.orderId()).isEqualTo(FakeOrders.ORDER_ID);
    }

    @Test
    void publishesEveryStatusChangeInThePurchaseStatusSearchAttribute() {
        beforeLocalSteps();
        temporal.orders.writing.hold();
        PurchaseWorkflow purchase = temporal.purchase("ann");
        temporal.orders.writing.awaitEntered();
        assertThat(temporal.statusAttribute(purchase)).isEqualTo("RESERVED");

        temporal.orders.writing.release();
        temporal.awaitStatus(purchase, PurchaseStatus.PENDING_PAYMENT);
        assertThat(temporal.statusAttribute(purchase)).isEqualTo("PENDING_PAYMENT");

        purchase.pay(new PaymentRequest("pay-1"));
        assertThat(temporal.statusAttribute(purchase)).isEqualTo("PAID");
    }
}
