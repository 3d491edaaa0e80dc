package io.flashsale.bench.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The checker's rules on how the run ended: every purchase, and every sale's audit. */
final class EndRules {

    private EndRules() {}

    /**
     * Every purchase ended, and MySQL and the api tell the same end. The run settles until every
     * purchase ended, so no order is left PENDING_PAYMENT and the api holds no purchase RESERVED or
     * PENDING_PAYMENT: one still waiting lost its workflow or its deadline. Each order's status, and
     * its payment id, is the api's for its purchase; a purchase the api says reached MySQL (any
     * status but REJECTED, which MySQL refused) has its order.
     */
    static List<Violation> everyPurchaseEnded(Ledger ledger) {
        List<Violation> found = new ArrayList<>();
        for (Facts.Order order : ledger.facts().orders()) {
            String purchaseId = order.purchaseId();
            List<Op> ops = ledger.opsOf(purchaseId);
            if (order.status().equals("PENDING_PAYMENT")) {
                found.add(new Violation(
                        Checker.EVERY_PURCHASE_ENDED, "the order of " + purchaseId + " is still PENDING_PAYMENT", ops));
            }
            Optional<Facts.Purchase> api = ledger.purchase(purchaseId).filter(purchase -> purchase.status() != null);
            if (api.isEmpty()) {
                found.add(new Violation(
                        Checker.EVERY_PURCHASE_ENDED,
                        "MySQL has a " + order.status() + " order for " + purchaseId
                                + ", the api knows no such purchase",
                        ops));
            } else if (!api.get().status().equals(order.status())
                    || !Objects.equals(api.get().paymentId(), order.paymentId())) {
                found.add(new Violation(
                        Checker.EVERY_PURCHASE_ENDED,
                        "the order of " + purchaseId + " is " + Ledger.ended(order.status(), order.paymentId())
                                + ", the api says "
                                + Ledger.ended(api.get().status(), api.get().paymentId()),
                        ops));
            }
        }
        for (Facts.Purchase purchase : ledger.facts().purchases()) {
            String purchaseId = purchase.purchaseId();
            if ("RESERVED".equals(purchase.status())) {
                found.add(new Violation(
                        Checker.EVERY_PURCHASE_ENDED,
                        "the api still has " + purchaseId + " RESERVED",
                        ledger.opsOf(purchaseId)));
            } else if (purchase.status() != null
                    && !purchase.status().equals("REJECTED")
                    && ledger.orderOf(purchaseId).isEmpty()) {
                found.add(new Violation(
                        Checker.EVERY_PURCHASE_ENDED,
                        "the api says " + purchaseId + " is " + purchase.status() + ", MySQL has no order for it",
                        ledger.opsOf(purchaseId)));
            }
        }
        return found;
    }
}
