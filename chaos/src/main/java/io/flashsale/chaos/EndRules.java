package io.flashsale.chaos;

import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/** The checker's rules on how the run ended: every purchase, and every sale's audit. */
final class EndRules {

    private EndRules() {}

    /**
     * Every purchase ended and MySQL and the api tell the same end: no order PENDING_PAYMENT, no
     * purchase RESERVED, each order's status and payment id the api's, and every purchase the api
     * has as anything but REJECTED has its order.
     */
    static void everyPurchaseEnded(Facts facts, BiConsumer<String, List<Op>> found) {
        for (Facts.Order order : facts.orders()) {
            String id = order.purchaseId();
            Optional<Facts.Purchase> api = facts.purchase(id).filter(purchase -> purchase.status() != null);
            if (order.status() == PurchaseStatus.PENDING_PAYMENT) {
                found.accept("the order of " + id + " is still PENDING_PAYMENT", facts.opsOf(id));
            }
            if (api.isEmpty()) {
                found.accept(
                        "MySQL has a " + order.status() + " order for " + id + ", the api knows no such purchase",
                        facts.opsOf(id));
            } else if (api.get().status() != order.status()
                    || !Objects.equals(api.get().paymentId(), order.paymentId())) {
                found.accept(
                        "the order of " + id + " is " + Facts.ended(order.status(), order.paymentId())
                                + ", the api says "
                                + Facts.ended(api.get().status(), api.get().paymentId()),
                        facts.opsOf(id));
            }
        }
        for (Facts.Purchase purchase : facts.purchases()) {
            String id = purchase.purchaseId();
            if (purchase.status() == PurchaseStatus.RESERVED) {
                found.accept("the api still has " + id + " RESERVED", facts.opsOf(id));
            } else if (purchase.status() != null
                    && purchase.status() != PurchaseStatus.REJECTED
                    && facts.orderOf(id).isEmpty()) {
                found.accept(
                        "the api says " + id + " is " + purchase.status() + ", MySQL has no order for it",
                        facts.opsOf(id));
            }
        }
    }

    /**
     * The product's audit passes on every sale (I1 to I5 of docs/architecture.md) and its counts add
     * up: available never below zero, total = paid + pending + available (a unit given back twice
     * shows as one too many), paid = the sale's PAID orders.
     */
    static void auditPasses(Facts facts, BiConsumer<String, List<Op>> found) {
        for (Facts.Sale sale : facts.sales()) {
            AuditReport audit = sale.audit();
            if (audit == null) {
                found.accept("no audit of sale " + sale.saleId(), List.of());
                continue;
            }
            if (audit.result() != AuditVerdict.PASS) {
                String broken = audit.violations().stream()
                        .map(violation -> violation.invariant() + " " + violation.detail())
                        .collect(Collectors.joining("; "));
                found.accept("the audit of sale " + sale.saleId() + " is " + audit.result() + ": " + broken, List.of());
            }
            int counted = audit.paid() + audit.pendingPayment() + audit.mysqlAvailable();
            if (counted != audit.total() || audit.mysqlAvailable() < 0) {
                found.accept(
                        "sale " + sale.saleId() + ": paid " + audit.paid() + " + pending " + audit.pendingPayment()
                                + " + available " + audit.mysqlAvailable() + " = " + counted + ", its total is "
                                + audit.total(),
                        List.of());
            }
            long paid = facts.orders().stream()
                    .filter(order -> order.saleId().equals(sale.saleId()) && order.status() == PurchaseStatus.PAID)
                    .count();
            if (paid != audit.paid()) {
                found.accept(
                        "sale " + sale.saleId() + " has " + paid + " PAID orders, its audit counts " + audit.paid(),
                        List.of());
            }
        }
    }
}
