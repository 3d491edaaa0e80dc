package io.flashsale.activities.audit;

/**
 * One order of a sale as the audit reads it from MySQL.
 *
 * @param overdue PENDING_PAYMENT with its pay deadline long passed (see {@link MySqlFacts})
 */
record OrderFact(String purchaseId, String userId, String status, boolean overdue) {

    static final String PENDING_PAYMENT = "PENDING_PAYMENT";
    static final String PAID = "PAID";

    /** The order holds a unit: PENDING_PAYMENT or PAID. */
    boolean holdsUnit() {
        return PENDING_PAYMENT.equals(status) || PAID.equals(status);
    }
}
