package io.flashsale.chaos;

import io.flashsale.chaos.Ledger.Buyer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The checker's rules on buyers: what their buys were answered, against the orders they own. */
final class BuyerRules {

    private BuyerRules() {}

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
            if (buys.stream().noneMatch(BuyerRules::answered2xx)) {
                continue;
            }
            String purchaseId = buyer.purchaseId();
            List<Facts.Order> orders = ledger.ordersOf(buyer);
            List<Op> ops = ledger.opsOf(buyer);
            if (orders.isEmpty()) {
                found.add(new Violation(
                        Checker.ADMITTED_BUYER_OWNS_PURCHASE, buyer + " was admitted but has no order", ops));
            }
            orders.stream()
                    .filter(order -> !order.purchaseId().equals(purchaseId))
                    .forEach(order -> found.add(new Violation(
                            Checker.ADMITTED_BUYER_OWNS_PURCHASE,
                            buyer + " has an order under " + order.purchaseId() + ", not " + purchaseId,
                            ops)));
            if (ledger.apiStatusOf(purchaseId).isEmpty()) {
                found.add(new Violation(
                        Checker.ADMITTED_BUYER_OWNS_PURCHASE,
                        buyer + " was admitted but the api knows no " + purchaseId,
                        ops));
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
                found.add(
                        new Violation(Checker.ONE_ORDER_PER_BUYER, buyer + " owns " + orders.size() + " orders", ops));
            } else if (buys.isEmpty()) {
                found.add(
                        new Violation(Checker.ONE_ORDER_PER_BUYER, buyer + " owns an order but never sent a buy", ops));
            } else if (buys.stream().allMatch(BuyerRules::refusedForSure)) {
                found.add(new Violation(
                        Checker.ONE_ORDER_PER_BUYER, buyer + " was refused every buy but owns an order", ops));
            }
        }
        return found;
    }

    /**
     * Once a key admitted its buyer, the key keeps answering that purchase: a BUY_RETRY sent after
     * a 2xx answer to its key (202 admitted, or 200 repeated) is never refused 409 (sold-out,
     * already-purchased, sale-not-open) nor 429, since limited_admit.lua looks the key up before the
     * rate limit, the window and the stock. A retry sent before that answer arrived is not checked:
     * its Lua may have run before the admission. Nor is 404 sale-not-found: once every purchase
     * ended, the sale's archive forgets its keys. (A purchase MySQL refused voids its hold and
     * forgets the buyer, whose key may then be refused: {@link #admittedBuyersOwnTheirPurchase}
     * reports that purchase already.)
     */
    static List<Violation> sameKeySameAnswer(Ledger ledger) {
        List<Violation> found = new ArrayList<>();
        for (Buyer buyer : ledger.buyers()) {
            Map<String, Op> admissions = new HashMap<>();
            for (Op op : ledger.buysOf(buyer)) {
                if (answered2xx(op)) {
                    admissions.merge(op.key(), op, (a, b) -> a.answeredAtMillis() <= b.answeredAtMillis() ? a : b);
                }
            }
            for (Op retry : ledger.buysOf(buyer)) {
                Op admission = admissions.get(retry.key());
                if (retry.kind() == Op.Kind.BUY_RETRY
                        && (retry.status() == 409 || retry.status() == 429)
                        && admission != null
                        && retry.invokedAtMillis() > admission.answeredAtMillis()) {
                    found.add(new Violation(
                            Checker.SAME_KEY_SAME_ANSWER,
                            buyer + " retried key " + retry.key() + ", answered " + admission.status()
                                    + " before, and was refused " + retry.status() + " " + retry.problemType(),
                            List.of(admission, retry)));
                }
            }
        }
        return found;
    }

    private static boolean answered2xx(Op op) {
        return op.outcome() == Op.Outcome.OK;
    }

    /** A 4xx that tells admit.lua wrote nothing for this buyer. */
    private static boolean refusedForSure(Op op) {
        return op.outcome() == Op.Outcome.FAIL && !op.problemType().equals("already-purchased");
    }
}
