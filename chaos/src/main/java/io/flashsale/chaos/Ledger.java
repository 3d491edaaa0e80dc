package io.flashsale.chaos;

import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.toList;

import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's history (in the order sent) and final facts, indexed by the purchase of each buyer, so a
 * report comes out in the same order every time.
 *
 * @param ops every buyer's buys, payments and cancels, the buyers in the order of their first one
 * @param orders each buyer's orders, whatever purchase id MySQL wrote them under
 */
record Ledger(List<Op> history, Facts facts, Map<String, List<Op>> ops, Map<String, List<Facts.Order>> orders) {

    static Ledger of(List<Op> history, Facts facts) {
        List<Op> sorted =
                history.stream().sorted(Comparator.comparingLong(Op::id)).toList();
        return new Ledger(
                sorted,
                facts,
                sorted.stream()
                        .filter(op -> !op.kind().byOperator())
                        .collect(groupingBy(Op::purchaseId, LinkedHashMap::new, toList())),
                facts.orders().stream()
                        .collect(groupingBy(
                                order -> PurchaseRequest.purchaseId(order.saleId(), order.userId()),
                                LinkedHashMap::new,
                                toList())));
    }

    static String buyer(String saleId, String userId) {
        return "sale " + saleId + " user " + userId;
    }

    /** Everything a buyer's purchase went through, buys, payments and cancels, in the order sent. */
    List<Op> opsOf(String purchaseId) {
        return ops.getOrDefault(purchaseId, List.of());
    }

    List<Op> buysOf(String purchaseId) {
        return opsOf(purchaseId).stream().filter(op -> op.kind().buy()).toList();
    }

    /** The order written under a purchase id, if any (a second one is a rule of its own). */
    Optional<Facts.Order> orderOf(String purchaseId) {
        return facts.orders().stream()
                .filter(order -> order.purchaseId().equals(purchaseId))
                .findFirst();
    }

    /** The purchase as the api told it at the end; its status null when it answered 404. */
    Optional<Facts.Purchase> purchase(String purchaseId) {
        return facts.purchases().stream()
                .filter(purchase -> purchase.purchaseId().equals(purchaseId))
                .findFirst();
    }

    /** A purchase's or an order's end, as the reports tell it. */
    static String ended(PurchaseStatus status, String paymentId) {
        return paymentId == null ? String.valueOf(status) : status + " with payment " + paymentId;
    }
}
