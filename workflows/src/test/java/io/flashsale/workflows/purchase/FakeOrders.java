package io.flashsale.workflows.purchase;

import io.temporal.failure.ApplicationFailure;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The MySQL side, faked: orders are written unless a test refuses them, payments pass unless a
 * test refuses one; every call is recorded, and each step can be held ({@link HeldStep}).
 */
final class FakeOrders implements OrderActivities {

    static final long ORDER_ID = 42;

    final HeldStep writing = new HeldStep();
    final HeldStep paying = new HeldStep();
    final HeldStep cancelling = new HeldStep();

    private final Steps steps;
    private final List<NewOrder> written = new CopyOnWriteArrayList<>();
    private final Map<String, ApplicationFailure> refusedPayments = new ConcurrentHashMap<>();
    private volatile ApplicationFailure orderRefusal;

    FakeOrders(Steps steps) {
        this.steps = steps;
    }

    /** Every {@code createOrder} fails for good as {@code failure}. */
    void refuseOrders(PurchaseFailure failure) {
        refuseOrders(failure.failure("refused by the test"));
    }

    void refuseOrders(ApplicationFailure failure) {
        orderRefusal = failure;
    }

    void refusePayment(String paymentId, PurchaseFailure failure) {
        refusedPayments.put(paymentId, failure.failure("payment " + paymentId + " refused by the test"));
    }

    /** The orders {@code createOrder} was asked to write. */
    List<NewOrder> written() {
        return List.copyOf(written);
    }

    @Override
    public long createOrder(NewOrder order) {
        steps.record("createOrder");
        written.add(order);
        writing.pass();
        if (orderRefusal != null) {
            throw orderRefusal;
        }
        return ORDER_ID;
    }

    @Override
    public void markPaid(String purchaseId, String paymentId) {
        steps.record("markPaid " + paymentId);
        paying.pass();
        ApplicationFailure refusal = refusedPayments.get(paymentId);
        if (refusal != null) {
            throw refusal;
        }
    }

    @Override
    public boolean cancelOrder(String purchaseId, PurchaseStatus outcome) {
        steps.record("cancelOrder " + outcome);
        cancelling.pass();
        return true;
    }
}
