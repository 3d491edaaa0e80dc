package io.flashsale.api.testing;

import io.flashsale.stores.testing.Hold;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The test worker's order activities, of which a test can hold {@code markPaid} or {@code
 * cancelOrder} of one purchase (a closed {@link Hold}) to send pay and cancel while that step runs.
 * Every other purchase, of this test or of another sharing the context, goes straight through.
 */
public final class HeldOrders implements OrderActivities {

    private final OrderActivities real;
    private final Map<String, Hold> payments = new ConcurrentHashMap<>();
    private final Map<String, Hold> cancels = new ConcurrentHashMap<>();

    HeldOrders(OrderActivities real) {
        this.real = real;
    }

    /** Holds the purchase's {@code markPaid} until the returned hold is opened. */
    public Hold payment(String purchaseId) {
        return closed(payments, purchaseId);
    }

    /** Holds the purchase's {@code cancelOrder} until the returned hold is opened. */
    public Hold cancel(String purchaseId) {
        return closed(cancels, purchaseId);
    }

    @Override
    public long createOrder(NewOrder order) {
        return real.createOrder(order);
    }

    @Override
    public void markPaid(String purchaseId, String paymentId) {
        pass(payments, purchaseId);
        real.markPaid(purchaseId, paymentId);
    }

    @Override
    public boolean cancelOrder(String purchaseId, PurchaseStatus outcome) {
        pass(cancels, purchaseId);
        return real.cancelOrder(purchaseId, outcome);
    }

    private static Hold closed(Map<String, Hold> holds, String purchaseId) {
        Hold hold = new Hold();
        hold.close();
        holds.put(purchaseId, hold);
        return hold;
    }

    private static void pass(Map<String, Hold> holds, String purchaseId) {
        Hold hold = holds.get(purchaseId);
        if (hold != null) {
            hold.pass();
        }
    }
}
