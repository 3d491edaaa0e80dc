package io.flashsale.chaos;

import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A run's history and final facts, indexed the ways the checker's rules look them up. The indexes
 * keep the history's order, so a report comes out the same every time it is checked.
 */
final class Ledger {

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

    static final Set<Op.Kind> BUYS = EnumSet.of(Op.Kind.BUY, Op.Kind.BUY_RETRY, Op.Kind.SECOND_CLICK);

    private final Map<Buyer, List<Op>> buys = new LinkedHashMap<>();
    private final Map<String, Buyer> buyersByPurchase = new HashMap<>();
    private final Map<String, List<Op>> commands = new LinkedHashMap<>();
    private final Map<Buyer, List<Facts.Order>> orders = new LinkedHashMap<>();
    private final Map<String, Facts.Order> ordersByPurchase = new HashMap<>();
    private final Map<String, Facts.Purchase> purchases = new LinkedHashMap<>();
    private final Map<String, List<Facts.Refund>> refunds = new LinkedHashMap<>();
    private final List<Op> history;
    private final List<Op> operators = new ArrayList<>();
    private final Facts facts;

    Ledger(List<Op> history, Facts facts) {
        this.history = history.stream().sorted(Comparator.comparingLong(Op::id)).toList();
        this.facts = facts;
        for (Op op : this.history) {
            if (op.kind().byOperator()) {
                operators.add(op);
            } else if (BUYS.contains(op.kind())) {
                Buyer buyer = new Buyer(op.saleId(), op.userId());
                add(buys, buyer, op);
                buyersByPurchase.put(buyer.purchaseId(), buyer);
            } else {
                add(commands, purchaseIdOf(op), op);
            }
        }
        for (Facts.Order order : facts.orders()) {
            add(orders, new Buyer(order.saleId(), order.userId()), order);
            ordersByPurchase.putIfAbsent(order.purchaseId(), order);
        }
        facts.purchases().forEach(purchase -> purchases.put(purchase.purchaseId(), purchase));
        facts.refunds().forEach(refund -> add(refunds, refund.paymentId(), refund));
    }

    /** The purchase an operation was about: named by payments and cancels, derived for buys. */
    static String purchaseIdOf(Op op) {
        return op.purchaseId().isEmpty() ? PurchaseRequest.purchaseId(op.saleId(), op.userId()) : op.purchaseId();
    }

    List<Op> history() {
        return history;
    }

    Facts facts() {
        return facts;
    }

    /** The operators' changes and repairs, in the order sent. */
    List<Op> operatorOps() {
        return operators;
    }

    /** Everyone who sent a buy, in the order of their first one. */
    Set<Buyer> buyers() {
        return buys.keySet();
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
        Buyer buyer = buyersByPurchase.get(purchaseId);
        return buyer != null ? opsOf(buyer) : commandsOf(purchaseId);
    }

    Map<Buyer, List<Facts.Order>> ordersByBuyer() {
        return orders;
    }

    /** The order written for a purchase, if any (a second one is a rule of its own). */
    Optional<Facts.Order> orderOf(String purchaseId) {
        return Optional.ofNullable(ordersByPurchase.get(purchaseId));
    }

    /** The purchase as the api told it at the end; its status null when it answered 404. */
    Optional<Facts.Purchase> purchase(String purchaseId) {
        return Optional.ofNullable(purchases.get(purchaseId));
    }

    List<Facts.Refund> refundsOf(String paymentId) {
        return refunds.getOrDefault(paymentId, List.of());
    }

    /** A purchase's or an order's end, as the reports tell it. */
    static String ended(PurchaseStatus status, String paymentId) {
        return paymentId == null ? String.valueOf(status) : status + " with payment " + paymentId;
    }

    private static <K, V> void add(Map<K, List<V>> index, K key, V value) {
        index.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }
}
