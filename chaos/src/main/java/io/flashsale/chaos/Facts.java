package io.flashsale.chaos;

import io.flashsale.stores.audit.AuditReport;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.List;

/**
 * What the stores and Temporal hold once a chaos run is over: every fault healed, every purchase
 * ended. The checker compares the run's history of operations with these.
 */
public record Facts(
        List<Sale> sales, List<Order> orders, List<Refund> refunds, List<Purchase> purchases, List<Change> changes) {

    /** A sale of the run, the units it was created with, and the api's audit of it at the end. */
    public record Sale(String saleId, int created, AuditReport audit) {}

    /**
     * A row of MySQL's {@code sale_changes}: {@code kind} CLOSE, MOVE, RESTOCK or WITHDRAW, the key
     * (null for a move), the units asked and how much the total changed.
     */
    public record Change(String saleId, String kind, String key, Integer unitsAsked, int units) {}

    /** A row of MySQL's {@code orders}. {@code paymentId} null unless PAID. */
    public record Order(String saleId, String userId, String purchaseId, PurchaseStatus status, String paymentId) {}

    /** A row of MySQL's {@code payment_refunds}: the money of a payment to give back. */
    public record Refund(String paymentId, String purchaseId, long amountMinor) {}

    /**
     * A purchase as the api tells it at the end (GET /api/purchases/{id}): {@code status} null when
     * the api answers 404 (no such purchase); {@code paymentId} null unless PAID.
     */
    public record Purchase(String purchaseId, PurchaseStatus status, String paymentId) {}
}
