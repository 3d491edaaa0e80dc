package io.flashsale.workflows.purchase;

import java.time.Instant;

/**
 * The order {@code createOrder} writes; {@code purchaseId} makes the write idempotent.
 *
 * @param payDeadline null: the deadline starts as the order is written, {@code payTimeoutSeconds}
 *     after the write
 * @param payTimeoutSeconds how long the buyer has to pay once the order exists (with no
 *     {@code payDeadline})
 */
public record NewOrder(String purchaseId, String saleId, String userId, Instant payDeadline, long payTimeoutSeconds) {

    /** An order with a deadline fixed before the write (purchases started before version 1). */
    public NewOrder(String purchaseId, String saleId, String userId, Instant payDeadline) {
        this(purchaseId, saleId, userId, payDeadline, 0);
    }

    /** The order of a purchase whose pay deadline starts when the order is written. */
    public static NewOrder deadlineFromWrite(PurchaseRequest request) {
        return new NewOrder(
                request.purchaseId(), request.saleId(), request.userId(), null, request.payTimeoutSeconds());
    }
}
