package io.flashsale.bench.chaos;

import io.flashsale.bench.chaos.Ledger.Buyer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Checks a chaos run the way Jepsen does: the history of what the clients were answered, against
 * the facts the stores and the api hold once every fault healed and every purchase ended. Pure
 * logic, no I/O: each rule is tested on planted histories and facts.
 *
 * <p>An operation answered 2xx took effect, one answered 4xx did not, and one never answered (or
 * answered 5xx) may have: the rules demand of the last only what holds either way.
 */
public final class Checker {

    public static final String ADMITTED_BUYER_OWNS_PURCHASE = "admitted-buyer-owns-purchase";
    public static final String ONE_ORDER_PER_BUYER = "one-order-per-buyer";
    public static final String EVERY_PURCHASE_ENDED = "every-purchase-ended";
    public static final String PAID_ONLY_AS_SENT = "paid-only-as-sent";
    public static final String REFUND_RECORDED_ONCE = "refund-recorded-once";

    private static final List<Function<Ledger, List<Violation>>> RULES = List.of(
            Checker::admittedBuyersOwnTheirPurchase,
            Checker::oneOrderPerBuyer,
            Checker::everyPurchaseEnded,
            Checker::paidOnlyAsSent,
            Checker::refundsRecordedOnce);

    /** The purchase statuses PaymentConfirmation answers a refund for. */
    private static final Set<String> CANNOT_BE_PAID_ANY_MORE = Set.of("PAID", "EXPIRED", "CANCELLED", "REJECTED");

    private Checker() {}

    /** Every rule the run broke, rule by rule, each in the order of the history. */
    public static List<Violation> check(List<Op> history, Facts facts) {
        Ledger ledger = new Ledger(history, facts);
        return RULES.stream().flatMap(rule -> rule.apply(ledger).stream()).toList();
    }

    /**
     * A buyer the api admitted owns its purchase: an order in MySQL under {@code
     * purchase-{sale}-{user}}, and a purchase the api knows. Admitted means a buy answered 2xx: 202
     * when that request admitted the buyer, 200 when it repeated the key the buyer was admitted
     * with (admit.lua's SAME_KEY, which only an admitted key gets), whatever the kind: a second click
     * whose first never landed is admitted under its own key. A purchase MySQL refused (REJECTED,
     * no order) broke the promise of the 202 and is reported here; a second order is {@link
     * #oneOrderPerBuyer}'s.
     */
    static List<Violation> admittedBuyersOwnTheirPurchase(Ledger ledger) {
        List<Violation> found = new ArrayList<>();
        for (Buyer buyer : ledger.buyers()) {
            List<Op> buys = ledger.buysOf(buyer);
            if (buys.stream().noneMatch(Checker::answered2xx)) {
                continue;
            }
            String purchaseId = buyer.purchaseId();
            List<Facts.Order> orders = ledger.ordersOf(buyer);
            List<Op> ops = ledger.opsOf(buyer);
            if (orders.isEmpty()) {
                found.add(violation(ADMITTED_BUYER_OWNS_PURCHASE, buyer + " was admitted but has no order", ops));
            }
            orders.stream()
                    .filter(order -> !order.purchaseId().equals(purchaseId))
                    .forEach(order -> found.add(violation(
                            ADMITTED_BUYER_OWNS_PURCHASE,
                            buyer + " has an order under " + order.purchaseId() + ", not " + purchaseId,
                            ops)));
            if (ledger.apiStatusOf(purchaseId).isEmpty()) {
                found.add(violation(
                        ADMITTED_BUYER_OWNS_PURCHASE, buyer + " was admitted but the api knows no " + purchaseId, ops));
            }
        }
        return found;
    }

    /**
     * Nobody has two orders in a sale, whatever they were answered (I2 as the clients see it). A
     * buyer whose every buy was refused for sure owns none: a 4xx other than already-purchased
     * means admit.lua wrote nothing (already-purchased says some other buy of theirs was admitted,
     * perhaps one never answered). A buyer never answered may own one: the request may have landed.
     * And every order belongs to someone who sent a buy in that sale.
     */
    static List<Violation> oneOrderPerBuyer(Ledger ledger) {
        List<Violation> found = new ArrayList<>();
        for (Map.Entry<Buyer, List<Facts.Order>> entry : ledger.ordersByBuyer().entrySet()) {
            Buyer buyer = entry.getKey();
            List<Facts.Order> orders = entry.getValue();
            List<Op> buys = ledger.buysOf(buyer);
            List<Op> ops = ledger.opsOf(buyer);
            if (orders.size() > 1) {
                found.add(violation(ONE_ORDER_PER_BUYER, buyer + " owns " + orders.size() + " orders", ops));
            } else if (buys.isEmpty()) {
                found.add(violation(ONE_ORDER_PER_BUYER, buyer + " owns an order but never sent a buy", ops));
            } else if (buys.stream().allMatch(Checker::refusedForSure)) {
                found.add(violation(ONE_ORDER_PER_BUYER, buyer + " was refused every buy but owns an order", ops));
            }
        }
        return found;
    }

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
                found.add(violation(
                        EVERY_PURCHASE_ENDED, "the order of " + purchaseId + " is still PENDING_PAYMENT", ops));
            }
            Optional<Facts.Purchase> api = ledger.purchase(purchaseId).filter(purchase -> purchase.status() != null);
            if (api.isEmpty()) {
                found.add(violation(
                        EVERY_PURCHASE_ENDED,
                        "MySQL has a " + order.status() + " order for " + purchaseId
                                + ", the api knows no such purchase",
                        ops));
            } else if (!api.get().status().equals(order.status())
                    || !Objects.equals(api.get().paymentId(), order.paymentId())) {
                found.add(violation(
                        EVERY_PURCHASE_ENDED,
                        "the order of " + purchaseId + " is " + ended(order.status(), order.paymentId())
                                + ", the api says "
                                + ended(api.get().status(), api.get().paymentId()),
                        ops));
            }
        }
        for (Facts.Purchase purchase : ledger.facts().purchases()) {
            String purchaseId = purchase.purchaseId();
            if ("RESERVED".equals(purchase.status())) {
                found.add(violation(
                        EVERY_PURCHASE_ENDED,
                        "the api still has " + purchaseId + " RESERVED",
                        ledger.opsOf(purchaseId)));
            } else if (purchase.status() != null
                    && !purchase.status().equals("REJECTED")
                    && ledger.orderOf(purchaseId).isEmpty()) {
                found.add(violation(
                        EVERY_PURCHASE_ENDED,
                        "the api says " + purchaseId + " is " + purchase.status() + ", MySQL has no order for it",
                        ledger.opsOf(purchaseId)));
            }
        }
        return found;
    }

    /**
     * Payments take effect only as sent and answered. A payment answered 200 paid its order with its
     * payment id: PurchaseCommands answers a payment 200 with the Update's outcome (PAID) or, when
     * the Update is refused, only for the payment id that paid; 202 (outcome not known yet) is not
     * checked. An order is PAID only with a payment id that a PAY or PAY_DUPLICATE of its purchase
     * sent and that was not refused every time: answered 2xx, or never answered. A payment of
     * another amount than the price is refused 422 before any Update (PaymentConfirmation), so it is
     * never answered 2xx and never pays.
     */
    static List<Violation> paidOnlyAsSent(Ledger ledger) {
        List<Violation> found = new ArrayList<>();
        Map<Payment, List<Op>> answeredPaid = new LinkedHashMap<>();
        for (Op op : ledger.history()) {
            if (isPayment(op) && op.status() == 200) {
                answeredPaid
                        .computeIfAbsent(Payment.of(op), p -> new ArrayList<>())
                        .add(op);
            } else if (op.kind() == Op.Kind.PAY_WRONG_AMOUNT && op.outcome() == Op.Outcome.OK) {
                found.add(violation(
                        PAID_ONLY_AS_SENT,
                        "payment " + op.key() + " of " + Ledger.purchaseIdOf(op) + " sent " + op.amountMinor()
                                + ", not the price, and was answered " + op.status(),
                        List.of(op)));
            }
        }
        answeredPaid.forEach((payment, ops) -> {
            Optional<Facts.Order> order = ledger.orderOf(payment.purchaseId());
            if (order.isEmpty() || !paidWith(order.get(), payment.paymentId())) {
                found.add(violation(
                        PAID_ONLY_AS_SENT,
                        "payment " + payment.paymentId() + " of " + payment.purchaseId()
                                + " was answered 200, but the order is "
                                + order.map(o -> ended(o.status(), o.paymentId()))
                                        .orElse("missing"),
                        ledger.opsOf(payment.purchaseId())));
            }
        });
        for (Facts.Order order : ledger.facts().orders()) {
            if (order.status().equals("PAID")) {
                paidBy(ledger, order)
                        .ifPresent(detail -> found.add(violation(
                                PAID_ONLY_AS_SENT,
                                "the order of " + order.purchaseId() + " is PAID with " + order.paymentId() + ", "
                                        + detail,
                                ledger.opsOf(order.purchaseId()))));
            }
        }
        return found;
    }

    /** What is wrong with the payment a PAID order holds, if anything. */
    private static Optional<String> paidBy(Ledger ledger, Facts.Order order) {
        List<Op> sent = ledger.commandsOf(order.purchaseId()).stream()
                .filter(op -> op.key().equals(order.paymentId()))
                .toList();
        if (sent.stream().anyMatch(op -> op.kind() == Op.Kind.PAY_WRONG_AMOUNT)) {
            return Optional.of("a payment of the wrong amount");
        }
        if (sent.stream().noneMatch(Checker::isPayment)) {
            return Optional.of("which no payment of it sent");
        }
        if (sent.stream().allMatch(op -> op.outcome() == Op.Outcome.FAIL)) {
            return Optional.of("which was refused every time it was sent");
        }
        return Optional.empty();
    }

    /**
     * Money the api answered "refund" for is recorded once, and only such money. The refund answer
     * is 409 payment-rejected with {@code "refundNeeded": true} (PaymentConfirmation), given when
     * the purchase can be paid no more: the problem's {@code purchaseStatus}, which the Op carries as
     * its purchaseStatus, is EXPIRED, CANCELLED, REJECTED, or PAID with another payment. Such a
     * payment has exactly one payment_refunds row, for its purchase. A 409 payment-rejected while
     * the purchase is still PENDING_PAYMENT (its deadline reached but the unit not given back yet, a
     * cancel or another payment under way) records nothing and is not checked. No row holds the
     * payment id an order was PAID with, and every row is for money a PAY or PAY_DUPLICATE of its
     * purchase sent, at its amount: a wrong amount is refused 422 before, never recorded.
     */
    static List<Violation> refundsRecordedOnce(Ledger ledger) {
        List<Violation> found = new ArrayList<>();
        Map<Payment, List<Op>> refundAnswers = new LinkedHashMap<>();
        ledger.history().stream().filter(Checker::answeredRefund).forEach(op -> refundAnswers
                .computeIfAbsent(Payment.of(op), p -> new ArrayList<>())
                .add(op));
        refundAnswers.forEach((payment, ops) -> {
            List<Facts.Refund> rows = ledger.refundsOf(payment.paymentId());
            if (rows.size() != 1 || !rows.get(0).purchaseId().equals(payment.purchaseId())) {
                found.add(violation(
                        REFUND_RECORDED_ONCE,
                        "payment " + payment.paymentId() + " of " + payment.purchaseId()
                                + " was answered refund-needed, but has " + rows.size() + " refund rows"
                                + (rows.size() == 1 ? ", for " + rows.get(0).purchaseId() : ""),
                        ledger.opsOf(payment.purchaseId())));
            }
        });
        for (Facts.Refund row : ledger.facts().refunds()) {
            List<Op> ops = ledger.opsOf(row.purchaseId());
            ledger.facts().orders().stream()
                    .filter(order -> paidWith(order, row.paymentId()))
                    .forEach(order -> found.add(violation(
                            REFUND_RECORDED_ONCE,
                            "payment " + row.paymentId() + " paid the order of " + order.purchaseId()
                                    + ", yet has a refund row",
                            ops)));
            boolean sent = ledger.commandsOf(row.purchaseId()).stream()
                    .anyMatch(op ->
                            isPayment(op) && op.key().equals(row.paymentId()) && op.amountMinor() == row.amountMinor());
            if (!sent) {
                found.add(violation(
                        REFUND_RECORDED_ONCE,
                        "a refund row for payment " + row.paymentId() + " of " + row.purchaseId() + " ("
                                + row.amountMinor() + ") that no payment of it sent",
                        ops));
            }
        }
        return found;
    }

    /** A payment of the price: PAY or PAY_DUPLICATE. */
    private static boolean isPayment(Op op) {
        return op.kind() == Op.Kind.PAY || op.kind() == Op.Kind.PAY_DUPLICATE;
    }

    /** PaymentConfirmation's refund answer: a refusal while the purchase can be paid no more. */
    private static boolean answeredRefund(Op op) {
        return isPayment(op)
                && op.status() == 409
                && op.problemType().equals("payment-rejected")
                && CANNOT_BE_PAID_ANY_MORE.contains(op.purchaseStatus());
    }

    private static boolean paidWith(Facts.Order order, String paymentId) {
        return order.status().equals("PAID") && paymentId.equals(order.paymentId());
    }

    /** One payment id sent for one purchase. */
    private record Payment(String purchaseId, String paymentId) {

        static Payment of(Op op) {
            return new Payment(Ledger.purchaseIdOf(op), op.key());
        }
    }

    private static String ended(String status, String paymentId) {
        return paymentId == null ? status : status + " with payment " + paymentId;
    }

    private static boolean answered2xx(Op op) {
        return op.outcome() == Op.Outcome.OK;
    }

    /** A 4xx that tells admit.lua wrote nothing for this buyer. */
    private static boolean refusedForSure(Op op) {
        return op.outcome() == Op.Outcome.FAIL && !op.problemType().equals("already-purchased");
    }

    private static Violation violation(String rule, String detail, List<Op> ops) {
        return new Violation(rule, detail, ops);
    }
}
