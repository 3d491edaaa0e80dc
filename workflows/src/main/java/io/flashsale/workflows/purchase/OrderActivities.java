package io.flashsale.workflows.purchase;

import io.temporal.activity.ActivityInterface;

/** The MySQL side of a purchase. Every method is idempotent; the implementations say by which key. */
@ActivityInterface
public interface OrderActivities {

    /**
     * Takes a unit from MySQL and writes the order in one transaction.
     *
     * @return the order id (the existing one when the purchase already has an order)
     * @throws io.temporal.failure.ApplicationFailure {@link PurchaseFailure#SOLD_OUT} or {@link
     *     PurchaseFailure#ALREADY_ORDERED}, non-retryable
     */
    long createOrder(NewOrder order);

    /**
     * PENDING_PAYMENT to PAID with the payment id; a repeat with the same payment id is a no-op.
     *
     * @throws io.temporal.failure.ApplicationFailure {@link PurchaseFailure#PAYMENT_ID_IN_USE}
     */
    void markPaid(String purchaseId, String paymentId);

    /**
     * PENDING_PAYMENT to {@code outcome} (EXPIRED or CANCELLED) and the unit back to the sale, in
     * one transaction, only when the transition happens.
     *
     * @return true when this call returned the unit
     */
    boolean cancelOrder(String purchaseId, PurchaseStatus outcome);
}
