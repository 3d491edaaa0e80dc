package io.flashsale.worker.purchase;

import io.flashsale.stores.testing.Hold;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PurchaseStatus;

/** The real order activities, each step behind a {@link Hold} the test can close to keep it running. */
final class HeldOrders implements OrderActivities {

    final Hold orders = new Hold();
    final Hold payments = new Hold();
    final Hold cancels = new Hold();
    private final OrderActivities real;

    HeldOrders(OrderActivities real) {
        this.real = real;
    }

    @Override
    public long createOrder(NewOrder order) {
        orders.pass();
        return real.createOrder(order);
    }

    @Override
    public void markPaid(String purchaseId, String paymentId) {
        payments.pass();
        real.markPaid(purchaseId, paymentId);
    }

    @Override
    public boolean cancelOrder(String purchaseId, PurchaseStatus outcome) {
        cancels.pass();
        return real.cancelOrder(purchaseId, outcome);
    }
}
