package io.flashsale.chaos;

import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/** The checker's rules on buyers: what their buys were answered, against the orders they own. */
final class BuyerRules {

    private BuyerRules() {}

    /**
     * A buyer admitted (any buy answered 2xx: 202, or 200 for the key it was admitted with) owns an
     * order under {@code purchase-{sale}-{user}} and a purchase the api knows; a purchase MySQL
     * refused (REJECTED, no order) broke the promise of the 202.
     */
    static void admittedBuyersOwnTheirPurchase(Facts facts, BiConsumer<String, List<Op>> found) {
        Map<String, List<Facts.Order>> ordersByBuyer = facts.ordersByBuyer();
        facts.byPurchase().forEach((purchaseId, ops) -> {
            if (ops.stream().noneMatch(op -> op.kind().buy() && op.outcome() == Op.Outcome.OK)) {
                return;
            }
            String buyer = Facts.buyer(ops.get(0).saleId(), ops.get(0).userId());
            List<Facts.Order> orders = ordersByBuyer.getOrDefault(purchaseId, List.of());
            if (orders.isEmpty()) {
                found.accept(buyer + " was admitted but has no order", ops);
            }
            orders.stream()
                    .filter(order -> !order.purchaseId().equals(purchaseId))
                    .forEach(order -> found.accept(
                            buyer + " has an order under " + order.purchaseId() + ", not " + purchaseId, ops));
            if (facts.purchase(purchaseId).map(Facts.Purchase::status).isEmpty()) {
                found.accept(buyer + " was admitted but the api knows no " + purchaseId, ops);
            }
        });
    }

    /**
     * Nobody has two orders in a sale (I2), and every order belongs to someone who sent a buy in it.
     * A buyer refused every buy for sure (a 4xx other than already-purchased: admit.lua wrote
     * nothing) owns none; one never answered may own one.
     */
    static void oneOrderPerBuyer(Facts facts, BiConsumer<String, List<Op>> found) {
        Map<String, List<Op>> byPurchase = facts.byPurchase();
        facts.ordersByBuyer().forEach((purchaseId, orders) -> {
            String buyer = Facts.buyer(orders.get(0).saleId(), orders.get(0).userId());
            List<Op> ops = byPurchase.getOrDefault(purchaseId, List.of());
            List<Op> buys = ops.stream().filter(op -> op.kind().buy()).toList();
            if (orders.size() > 1) {
                found.accept(buyer + " owns " + orders.size() + " orders", ops);
            } else if (buys.isEmpty()) {
                found.accept(buyer + " owns an order but never sent a buy", ops);
            } else if (buys.stream()
                    .allMatch(op ->
                            op.outcome() == Op.Outcome.FAIL && !op.problemType().equals("already-purchased"))) {
                found.accept(buyer + " was refused every buy but owns an order", ops);
            }
        });
    }

    /**
     * A BUY_RETRY sent after its key was answered 2xx is never refused 409 or 429: limited_admit.lua
     * looks the key up before the rate limit, the window and the stock. A retry sent before that
     * answer (its Lua may have run first) and 404 sale-not-found (an archived sale forgets its keys)
     * are not checked.
     */
    static void sameKeySameAnswer(Facts facts, BiConsumer<String, List<Op>> found) {
        Map<String, List<Op>> byPurchase = facts.byPurchase();
        for (Op retry : facts.history()) {
            if (retry.kind() != Op.Kind.BUY_RETRY || (retry.status() != 409 && retry.status() != 429)) {
                continue;
            }
            byPurchase.getOrDefault(retry.purchaseId(), List.of()).stream()
                    .filter(op -> op.kind().buy()
                            && op.outcome() == Op.Outcome.OK
                            && op.key().equals(retry.key())
                            && op.answeredAtMillis() < retry.invokedAtMillis())
                    .findFirst()
                    .ifPresent(admission -> found.accept(
                            Facts.buyer(retry.saleId(), retry.userId()) + " retried key " + retry.key()
                                    + ", answered " + admission.status() + " before, and was refused "
                                    + retry.status() + " " + retry.problemType(),
                            List.of(admission, retry)));
        }
    }
}
