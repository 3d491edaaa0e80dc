package io.flashsale.bench.chaos;

import io.flashsale.bench.chaos.Ledger.Buyer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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

    private static final List<Function<Ledger, List<Violation>>> RULES =
            List.of(Checker::admittedBuyersOwnTheirPurchase, Checker::oneOrderPerBuyer, Checker::everyPurchaseEnded);

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
