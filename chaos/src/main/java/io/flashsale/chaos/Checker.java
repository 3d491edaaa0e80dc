package io.flashsale.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Checks a chaos run the way Jepsen does: the history of what the clients were answered, against
 * the facts the stores and the api hold once every fault healed and every purchase ended. Pure
 * logic, no I/O: each rule is tested on planted histories and facts.
 *
 * <p>An operation answered 2xx took effect, one answered 4xx did not, and one never answered (or
 * answered 5xx) may have: the rules demand of the last only what holds either way. Each rule's
 * javadoc ({@link #RULES}, in the order of the names) states it and the answers it rests on.
 */
public final class Checker {

    public static final String ADMITTED_BUYER_OWNS_PURCHASE = "admitted-buyer-owns-purchase";
    public static final String ONE_ORDER_PER_BUYER = "one-order-per-buyer";
    public static final String EVERY_PURCHASE_ENDED = "every-purchase-ended";
    public static final String PAID_ONLY_AS_SENT = "paid-only-as-sent";
    public static final String REFUND_RECORDED_ONCE = "refund-recorded-once";
    public static final String AUDIT_PASSES = "audit-passes";
    public static final String SAME_KEY_SAME_ANSWER = "same-key-same-answer";
    public static final String CHANGES_RECORDED_ONCE = "changes-recorded-once";
    public static final String REDIS_NEVER_ABOVE_MYSQL = "redis-never-above-mysql";
    public static final String CLOSED_SALE_ADMITS_NOBODY = "closed-sale-admits-nobody";

    /** A rule over the ledger: hands each breach it finds, a detail and the operations behind it, to {@code found}. */
    interface Rule {
        void check(Ledger ledger, BiConsumer<String, List<Op>> found);
    }

    private static final List<Map.Entry<String, Rule>> RULES = List.of(
            Map.entry(ADMITTED_BUYER_OWNS_PURCHASE, BuyerRules::admittedBuyersOwnTheirPurchase),
            Map.entry(ONE_ORDER_PER_BUYER, BuyerRules::oneOrderPerBuyer),
            Map.entry(EVERY_PURCHASE_ENDED, EndRules::everyPurchaseEnded),
            Map.entry(PAID_ONLY_AS_SENT, PaymentRules::paidOnlyAsSent),
            Map.entry(REFUND_RECORDED_ONCE, PaymentRules::refundsRecordedOnce),
            Map.entry(AUDIT_PASSES, EndRules::auditPasses),
            Map.entry(SAME_KEY_SAME_ANSWER, BuyerRules::sameKeySameAnswer),
            Map.entry(CHANGES_RECORDED_ONCE, OperatorRules::changesRecordedOnce),
            Map.entry(REDIS_NEVER_ABOVE_MYSQL, OperatorRules::redisNeverAboveMySql),
            Map.entry(CLOSED_SALE_ADMITS_NOBODY, OperatorRules::closedSaleAdmitsNobody));

    private Checker() {}

    /** Every rule the run broke, rule by rule, each in the order of the history. */
    public static List<Violation> check(List<Op> history, Facts facts) {
        Ledger ledger = Ledger.of(history, facts);
        List<Violation> found = new ArrayList<>();
        RULES.forEach(rule ->
                rule.getValue().check(ledger, (detail, ops) -> found.add(new Violation(rule.getKey(), detail, ops))));
        return found;
    }
}
