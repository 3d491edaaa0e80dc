package io.flashsale.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;

/**
 * Checks a chaos run the way Jepsen does: the history of what the clients were answered, against
 * the facts the stores and the api hold once every fault healed and every purchase ended. Pure
 * logic, no I/O: each rule is tested on planted histories and facts.
 *
 * <p>An operation answered 2xx took effect, one answered 4xx did not, and one never answered (or
 * answered 5xx) may have: the rules demand of the last only what holds either way. Each rule's
 * javadoc ({@link Rule}) states it and the answers it rests on.
 */
public final class Checker {

    /** The rules, in the order a report lists them; each printed in kebab case, e.g. {@code one-order-per-buyer}. */
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
        /** Every fault the nemesis injected healed: {@link ChaosRun} checks it, not the ledger. */
        NEMESIS((ledger, found) -> {});

        private final Check check;

        Rule(Check check) {
            this.check = check;
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** A rule over the ledger: hands each breach it finds, a detail and the operations behind it, to {@code found}. */
    interface Check {
        void check(Ledger ledger, BiConsumer<String, List<Op>> found);
    }

    private Checker() {}

    /** Every rule the run broke, rule by rule, each in the order of the history. */
    public static List<Violation> check(List<Op> history, Facts facts) {
        Ledger ledger = Ledger.of(history, facts);
        List<Violation> found = new ArrayList<>();
        for (Rule rule : Rule.values()) {
            rule.check.check(ledger, (detail, ops) -> found.add(new Violation(rule, detail, ops)));
        }
        return found;
    }
}
