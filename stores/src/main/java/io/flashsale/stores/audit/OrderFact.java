package io.flashsale.stores.audit;

import io.flashsale.workflows.purchase.PurchaseStatus;

/**
 * One order of a sale as the audit reads it from MySQL.
 *
 * @param saleId the sale id of the order's own row
 * @param overdue PENDING_PAYMENT with its pay deadline long passed (see {@link MySqlFacts})
 */
record OrderFact(String purchaseId, String saleId, String userId, PurchaseStatus status, boolean overdue) {

    /** The order holds a unit: PENDING_PAYMENT or PAID. */
    boolean holdsUnit() {
        return status == PurchaseStatus.PENDING_PAYMENT || status == PurchaseStatus.PAID;
    }

    boolean isPending() {
        return status == PurchaseStatus.PENDING_PAYMENT;
    }
}
