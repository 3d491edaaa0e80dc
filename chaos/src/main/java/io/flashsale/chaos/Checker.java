package io.flashsale.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;

/**
 * Checks a chaos run as Jepsen does: the history of what the clients were answered against what the
 * stores and the api hold once every fault healed. An operation answered 2xx took effect, one
 * answered 4xx did not, and of one never answered (or 5xx) the rules demand only what holds either
 * way. Pure logic: each rule is tested on planted histories and facts.
 */
public final class Checker {

    /** The rules, in the order a report lists them, each printed in kebab case ({@code one-order-per-buyer}). */
    public enum Rule {
        ADMITTED_BUYER_OWNS_PURCHASE(BuyerRules::admittedBuyersOwnTheirPurchase),
        ONE_ORDER_PER_BUYER(BuyerRules::oneOrderPerBuyer),
        EVERY_PURCHASE_ENDED(EndRules::everyPurchaseEnded),
        PAID_ONLY_AS_SENT(PaymentRules::paidOnlyAsSent),
        REFUND_RECORDED_ONCE(PaymentRules::refundsRecordedOnce),
        AUDIT_PASSES(EndRules::auditPasses),
        SAME_KEY_SAME_ANSWER(BuyerRules::sameKeySameAnswer),
        CHANGES_RECORDED_ONCE(OperatorRules::changesRecordedOnce),
        REDIS_NEVER_ABOVE_MYSQL(OperatorRules::redisNeverAboveMySql),
        CLOSED_SALE_ADMITS_NOBODY(OperatorRules::closedSaleAdmitsNobody),
        /** Every fault the nemesis injected healed: {@link ChaosCommand} checks it. */
        NEMESIS((facts, found) -> {});

        /** Hands each breach it finds, a detail and the operations behind it, to {@code found}. */
        private final BiConsumer<Facts, BiConsumer<String, List<Op>>> check;

        Rule(BiConsumer<Facts, BiConsumer<String, List<Op>>> check) {
            this.check = check;
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** A rule broken: what was found, naming the sale, user or purchase, and the operations behind it. */
    public record Violation(Rule rule, String detail, List<Op> ops) {}

    private Checker() {}

    /** Every rule the run broke, rule by rule, each in the order of the history. */
    public static List<Violation> check(Facts facts) {
        List<Violation> found = new ArrayList<>();
        for (Rule rule : Rule.values()) {
            rule.check.accept(facts, (detail, ops) -> found.add(new Violation(rule, detail, List.copyOf(ops))));
        }
        return found;
    }
}
