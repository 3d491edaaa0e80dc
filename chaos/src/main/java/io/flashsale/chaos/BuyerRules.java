package io.flashsale.chaos;

import io.flashsale.chaos.Ledger.Buyer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/** The checker's rules on buyers: what their buys were answered, against the orders they own. */
final class BuyerRules {

    private BuyerRules() {}

    /**
     * A buyer the api admitted owns its purchase: an order under {@code purchase-{sale}-{user}} and
     * a purchase the api knows. Admitted means a buy answered 2xx, whatever its kind: 202 admitted
     * it, 200 repeated the key it was admitted with (admit.lua's SAME_KEY). A purchase MySQL refused
     * (REJECTED, no order) broke the promise of the 202 and is reported here.
     */
    static void admittedBuyersOwnTheirPurchase(Ledger ledger, BiConsumer<String, List<Op>> found) {
        for (Buyer buyer : ledger.buys().keySet()) {
            if (ledger.buysOf(buyer).stream().noneMatch(op -> op.outcome() == Op.Outcome.OK)) {
                continue;
            }
            String purchaseId = buyer.purchaseId();
            List<Facts.Order> orders = ledger.orders().getOrDefault(buyer, List.of());
            List<Op> ops = ledger.opsOf(buyer);
            if (orders.isEmpty()) {
                found.accept(buyer + " was admitted but has no order", ops);
            }
            orders.stream()
                    .filter(order -> !order.purchaseId().equals(purchaseId))
                    .forEach(order -> found.accept(
                            buyer + " has an order under " + order.purchaseId() + ", not " + purchaseId, ops));
            if (ledger.purchase(purchaseId).map(Facts.Purchase::status).isEmpty()) {
                found.accept(buyer + " was admitted but the api knows no " + purchaseId, ops);
            }
        }
    }

    /**
     * Nobody has two orders in a sale, whatever they were answered (I2), and every order belongs to
     * someone who sent a buy in that sale. A buyer whose every buy was refused for sure owns none: a
     * 4xx other than already-purchased means admit.lua wrote nothing. One never answered may own one.
     */
    static void oneOrderPerBuyer(Ledger ledger, BiConsumer<String, List<Op>> found) {
        ledger.orders().forEach((buyer, orders) -> {
            List<Op> buys = ledger.buysOf(buyer);
            String detail = orders.size() > 1
                    ? buyer + " owns " + orders.size() + " orders"
                    : buys.isEmpty()
                            ? buyer + " owns an order but never sent a buy"
                            : buys.stream().allMatch(BuyerRules::refusedForSure)
                                    ? buyer + " was refused every buy but owns an order"
                                    : null;
            if (detail != null) {
                found.accept(detail, ledger.opsOf(buyer));
            }
        });
    }

    /**
     * Once a key admitted its buyer, the key keeps answering that purchase: a BUY_RETRY sent after a
     * 2xx answer to its key is never refused 409 or 429, since limited_admit.lua looks the key up
     * before the rate limit, the window and the stock. A retry sent before that answer arrived is not
     * checked (its Lua may have run first), nor 404 sale-not-found: the sale's archive forgets its
     * keys once every purchase ended.
     */
    static void sameKeySameAnswer(Ledger ledger, BiConsumer<String, List<Op>> found) {
        for (Buyer buyer : ledger.buys().keySet()) {
            Map<String, Op> admissions = new HashMap<>();
            ledger.buysOf(buyer).stream()
                    .filter(op -> op.outcome() == Op.Outcome.OK)
                    .forEach(op -> admissions.merge(
                            op.key(), op, (a, b) -> a.answeredAtMillis() <= b.answeredAtMillis() ? a : b));
            for (Op retry : ledger.buysOf(buyer)) {
                Op admission = admissions.get(retry.key());
                if (retry.kind() == Op.Kind.BUY_RETRY
                        && (retry.status() == 409 || retry.status() == 429)
                        && admission != null
                        && retry.invokedAtMillis() > admission.answeredAtMillis()) {
                    found.accept(
                            buyer + " retried key " + retry.key() + ", answered " + admission.status()
                                    + " before, and was refused " + retry.status() + " " + retry.problemType(),
                            List.of(admission, retry));
                }
            }
        }
    }

    /** A 4xx that tells admit.lua wrote nothing for this buyer. */
    private static boolean refusedForSure(Op op) {
        return op.outcome() == Op.Outcome.FAIL && !op.problemType().equals("already-purchased");
    }
}
