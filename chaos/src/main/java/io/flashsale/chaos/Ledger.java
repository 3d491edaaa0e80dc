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
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A run's history (in the order sent) and final facts, indexed the ways the checker's rules look
 * them up. The indexes keep the history's order, so a report comes out the same every time.
 *
 * @param buys every buyer's buys, the buyers in the order of their first one
 * @param commands the payments and cancels sent for each purchase
 * @param orders each buyer's orders
 */
record Ledger(
        List<Op> history,
        Facts facts,
        Map<Buyer, List<Op>> buys,
        Map<String, List<Op>> commands,
        Map<Buyer, List<Facts.Order>> orders) {

    /** Who buys: one user in one sale, owner of at most one purchase. */
    record Buyer(String saleId, String userId) {

        String purchaseId() {
            return PurchaseRequest.purchaseId(saleId, userId);
        }

        @Override
        public String toString() {
            return "sale " + saleId + " user " + userId;
        }
    }

    static Ledger of(List<Op> history, Facts facts) {
        List<Op> sorted =
                history.stream().sorted(Comparator.comparingLong(Op::id)).toList();
        return new Ledger(
                sorted,
                facts,
                index(sorted.stream().filter(op -> op.kind().buy()), op -> new Buyer(op.saleId(), op.userId())),
                index(
                        sorted.stream()
                                .filter(op -> !op.kind().buy() && !op.kind().byOperator()),
                        Ledger::purchaseIdOf),
                index(facts.orders().stream(), order -> new Buyer(order.saleId(), order.userId())));
    }

    /** The purchase an operation was about: named by payments and cancels, derived for buys. */
    static String purchaseIdOf(Op op) {
        return op.purchaseId().isEmpty() ? PurchaseRequest.purchaseId(op.saleId(), op.userId()) : op.purchaseId();
    }

    /** The operators' changes and repairs, in the order sent. */
    Stream<Op> operatorOps() {
        return history.stream().filter(op -> op.kind().byOperator());
    }

    List<Op> buysOf(Buyer buyer) {
        return buys.getOrDefault(buyer, List.of());
    }

    /** The payments and cancels sent for a purchase. */
    List<Op> commandsOf(String purchaseId) {
        return commands.getOrDefault(purchaseId, List.of());
    }

    /** Everything a buyer's purchase went through, buys, payments and cancels, in the order sent. */
    List<Op> opsOf(Buyer buyer) {
        return Stream.concat(buysOf(buyer).stream(), commandsOf(buyer.purchaseId()).stream())
                .sorted(Comparator.comparingLong(Op::id))
                .toList();
    }

    /** The ops of the buyer whose purchase this is; a purchase no buy named has its commands only. */
    List<Op> opsOf(String purchaseId) {
        return buys.keySet().stream()
                .filter(buyer -> buyer.purchaseId().equals(purchaseId))
                .findFirst()
                .map(this::opsOf)
                .orElseGet(() -> commandsOf(purchaseId));
    }

    /** The order written for a purchase, if any (a second one is a rule of its own). */
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

    private static <K, V> Map<K, List<V>> index(Stream<V> values, Function<V, K> key) {
        return values.collect(groupingBy(key, LinkedHashMap::new, toList()));
    }
}
