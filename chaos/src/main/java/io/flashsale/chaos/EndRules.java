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
        BiConsumer<String, String> report = (purchaseId, detail) -> found.accept(detail, facts.opsOf(purchaseId));
        for (Facts.Order order : facts.orders()) {
            String purchaseId = order.purchaseId();
            if (order.status() == PurchaseStatus.PENDING_PAYMENT) {
                report.accept(purchaseId, "the order of " + purchaseId + " is still PENDING_PAYMENT");
            }
            Optional<Facts.Purchase> api = facts.purchase(purchaseId).filter(purchase -> purchase.status() != null);
            if (api.isEmpty()) {
                report.accept(
                        purchaseId,
                        "MySQL has a " + order.status() + " order for " + purchaseId
                                + ", the api knows no such purchase");
            } else if (api.get().status() != order.status()
                    || !Objects.equals(api.get().paymentId(), order.paymentId())) {
                report.accept(
                        purchaseId,
                        "the order of " + purchaseId + " is " + Facts.ended(order.status(), order.paymentId())
                                + ", the api says "
                                + Facts.ended(api.get().status(), api.get().paymentId()));
            }
        }
        for (Facts.Purchase purchase : facts.purchases()) {
            String purchaseId = purchase.purchaseId();
            if (purchase.status() == PurchaseStatus.RESERVED) {
                report.accept(purchaseId, "the api still has " + purchaseId + " RESERVED");
            } else if (purchase.status() != null
                    && purchase.status() != PurchaseStatus.REJECTED
                    && facts.orderOf(purchaseId).isEmpty()) {
                report.accept(
                        purchaseId,
                        "the api says " + purchaseId + " is " + purchase.status() + ", MySQL has no order for it");
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
            String saleId = sale.saleId();
            AuditReport audit = sale.audit();
            if (audit == null) {
                found.accept("no audit of sale " + saleId, List.of());
                continue;
            }
            if (audit.result() != AuditVerdict.PASS) {
                found.accept("the audit of sale " + saleId + " is " + audit.result() + ": " + broken(audit), List.of());
            }
            int counted = audit.paid() + audit.pendingPayment() + audit.mysqlAvailable();
            if (counted != audit.total() || audit.mysqlAvailable() < 0) {
                found.accept(
                        "sale " + saleId + ": paid " + audit.paid() + " + pending " + audit.pendingPayment()
                                + " + available " + audit.mysqlAvailable() + " = " + counted + ", its total is "
                                + audit.total(),
                        List.of());
            }
            long paid = facts.orders().stream()
                    .filter(order -> order.saleId().equals(saleId) && order.status() == PurchaseStatus.PAID)
                    .count();
            if (paid != audit.paid()) {
                found.accept(
                        "sale " + saleId + " has " + paid + " PAID orders, its audit counts " + audit.paid(),
                        List.of());
            }
        }
    }

    private static String broken(AuditReport audit) {
        return audit.violations().stream()
                .map(violation -> violation.invariant() + " " + violation.detail())
                .collect(Collectors.joining("; "));
    }
}
