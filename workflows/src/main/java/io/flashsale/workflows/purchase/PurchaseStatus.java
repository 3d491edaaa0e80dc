package io.flashsale.workflows.purchase;

/** Where a purchase stands. The last four are final. */
public enum PurchaseStatus {
    /** Admitted: a unit is held in Redis, the order is not written yet. */
    RESERVED,
    /** The order is in MySQL and the pay timer runs. */
    PENDING_PAYMENT,
    PAID,
    /** The pay deadline passed; the unit went back on sale. */
    EXPIRED,
    /** The buyer cancelled; the unit went back on sale. */
    CANCELLED,
    /** MySQL or Redis had no unit (or the user already had an order); nothing is held. */
    REJECTED;

    public boolean isFinal() {
        return this == PAID || this == EXPIRED || this == CANCELLED || this == REJECTED;
    }
}
