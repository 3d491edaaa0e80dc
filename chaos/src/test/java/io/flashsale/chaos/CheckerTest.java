package io.flashsale.chaos;

import static io.flashsale.chaos.Op.Kind.BUY;
import static io.flashsale.chaos.Op.Kind.BUY_RETRY;
import static io.flashsale.chaos.Op.Kind.CANCEL;
import static io.flashsale.chaos.Op.Kind.CLOSE;
import static io.flashsale.chaos.Op.Kind.PAY;
import static io.flashsale.chaos.Op.Kind.PAY_DUPLICATE;
import static io.flashsale.chaos.Op.Kind.PAY_WRONG_AMOUNT;
import static io.flashsale.chaos.Op.Kind.REPAIR;
import static io.flashsale.chaos.Op.Kind.RESTOCK;
import static io.flashsale.chaos.Op.Kind.SECOND_CLICK;
import static io.flashsale.chaos.Op.Kind.WITHDRAW;
import static io.flashsale.chaos.Op.Outcome.FAIL;
import static io.flashsale.chaos.Op.Outcome.OK;
import static io.flashsale.chaos.Op.Outcome.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CheckerTest {

    private static final String SALE = "s1";
    private static final int TOTAL = 3;
    private static final long PRICE = 1000;

    private final List<Op> history = new ArrayList<>();
    private final List<Facts.Order> orders = new ArrayList<>();
    private final List<Facts.Refund> refunds = new ArrayList<>();
    private final List<Facts.Change> changes = new ArrayList<>();
    /** What the api answers for a user's purchase when it is not what MySQL holds (null: 404). */
    private final Map<String, PurchaseStatus> apiSays = new HashMap<>();
    /** The sale's audit when it is not the passing audit of the orders as they are. */
    private AuditReport auditSays;

    /**
     * A clean run of sale s1 (3 units at 1000), every answer the code gives on the way: admitted,
     * repeated, refused, unanswered; paid, paid again, a wrong amount, paid late and refunded,
     * cancelled, and a payment that landed though its answer was lost.
     */
    @BeforeEach
    void cleanRun() {
        // u1 is admitted, retries, pays, and the provider repeats the payment
        buy(BUY, "u1", "k1", 202);
        buy(BUY_RETRY, "u1", "k1", 200);
        pay(PAY, "u1", "p1", 200, "PAID");
        pay(PAY_DUPLICATE, "u1", "p1", 200, "PAID");
        order("u1", PurchaseStatus.PAID, "p1");

        // u2 sends the wrong amount, lets the deadline pass, pays late: refused, recorded for a refund
        buy(BUY, "u2", "k2", 202);
        pay(PAY_WRONG_AMOUNT, "u2", "w2", 422, "");
        pay(PAY, "u2", "p2", 409, "EXPIRED");
        order("u2", PurchaseStatus.EXPIRED, null);
        refund("u2", "p2");

        // u3's first click is never answered but landed; a payment while the cancel gives the unit
        // back is refused without a refund (still PENDING_PAYMENT)
        buy(BUY, "u3", "k3", 0);
        buy(BUY_RETRY, "u3", "k3", 200);
        refusedBuy(SECOND_CLICK, "u3", "k3b", "already-purchased");
        pay(PAY, "u3", "p3", 409, "PENDING_PAYMENT");
        cancel("u3", 200, "CANCELLED");
        order("u3", PurchaseStatus.CANCELLED, null);

        // u4 comes too late; u5 is never answered and did not land
        refusedBuy(BUY, "u4", "k4", "sold-out");
        buy(BUY, "u5", "k5", 503);

        // u6 is never answered, nor is its payment, and both landed
        buy(BUY, "u6", "k6", 0);
        pay(PAY, "u6", "p6", 0, "");
        order("u6", PurchaseStatus.PAID, "p6");

        // the operator restocks 2 (and repeats it), reuses the key for 3 (a conflict), withdraws 1,
        // repairs, then closes the sale: later buyers are refused
        operator(RESTOCK, "r1", 2, 200, "");
        operator(RESTOCK, "r1", 2, 200, "");
        operator(RESTOCK, "r1", 3, 409, "change-conflict");
        operator(WITHDRAW, "w1", 1, 200, "");
        operator(REPAIR, "", 0, 409, "admissions-in-flight");
        changes.add(new Facts.Change(SALE, "RESTOCK", "r1", 2, 2));
        changes.add(new Facts.Change(SALE, "WITHDRAW", "w1", 1, -1));
        operator(CLOSE, "", 0, 200, "");
        changes.add(new Facts.Change(SALE, "CLOSE", "#close", null, 0));
        refusedBuy(BUY, "u7", "k7", "sale-not-open");
    }

    @Test
    void findsNothingWrongWithACleanRun() {
        assertThat(violations()).isEmpty();
    }

    @Test
    void aChangeAnswered200ThatMySqlDidNotRecord() {
        changes.removeIf(change -> "r1".equals(change.changeKey()));

        assertThat(violationsOf(Checker.Rule.CHANGES_RECORDED_ONCE))
                .extracting(Checker.Violation::detail)
                .anySatisfy(detail -> assertThat(detail).contains("RESTOCK r1 of 2 answered 200"))
                .anySatisfy(detail -> assertThat(detail).contains("its changes make 1, its audit says 3"));
    }

    @Test
    void aKeyRecordedTwiceOrAConflictRecordedAsSent() {
        changes.add(new Facts.Change(SALE, "RESTOCK", "r1", 3, 3));

        assertThat(violationsOf(Checker.Rule.CHANGES_RECORDED_ONCE))
                .extracting(Checker.Violation::detail)
                .anySatisfy(detail -> assertThat(detail).contains("RESTOCK r1 of 2 answered 200, recorded"))
                .anySatisfy(detail -> assertThat(detail).contains("its changes make 6"));
    }

    @Test
    void redisOfferingMoreThanMySqlOnceQuiet() {
        AuditReport passing = passingAudit();
        auditSays = withRedisStock(passing, passing.mysqlAvailable() + 1L);

        assertThat(violationsOf(Checker.Rule.REDIS_NEVER_ABOVE_MYSQL))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("Redis offers 2 units, MySQL has 1"));
    }

    @Test
    void aBuyerAdmittedAfterTheCloseWasAnswered() {
        buy(BUY, "u8", "k8", 202);
        order("u8", PurchaseStatus.EXPIRED, null);

        assertThat(violationsOf(Checker.Rule.CLOSED_SALE_ADMITS_NOBODY))
                .singleElement()
                .satisfies(v -> assertThat(v.ops()).extracting(Op::kind).containsExactly(CLOSE, BUY));
    }

    @Test
    void aBuyerAnswered202WithoutAnOrder() {
        orders.removeIf(order -> order.userId().equals("u2"));
        apiSays.put("u2", PurchaseStatus.REJECTED);

        assertThat(violationsOf(Checker.Rule.ADMITTED_BUYER_OWNS_PURCHASE))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("sale s1 user u2", "no order"))
                .satisfies(v -> assertThat(v.ops()).extracting(Op::userId).containsOnly("u2"));
    }

    @Test
    void anAdmittedPurchaseTheApiDoesNotKnow() {
        apiSays.put("u1", null);

        assertThat(violationsOf(Checker.Rule.ADMITTED_BUYER_OWNS_PURCHASE))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("api knows no purchase-s1-u1"));
    }

    @Test
    void twoOrdersForOneUser() {
        order("u3", PurchaseStatus.EXPIRED, null);

        assertThat(violationsOf(Checker.Rule.ONE_ORDER_PER_BUYER))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("sale s1 user u3 owns 2 orders"));
    }

    @Test
    void anOrderForABuyerRefusedEveryTime() {
        order("u4", PurchaseStatus.EXPIRED, null);

        assertThat(violationsOf(Checker.Rule.ONE_ORDER_PER_BUYER))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("user u4", "refused"));
    }

    @Test
    void anOrderNobodyBought() {
        order("u9", PurchaseStatus.EXPIRED, null);

        assertThat(violationsOf(Checker.Rule.ONE_ORDER_PER_BUYER))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("user u9", "never sent a buy"));
    }

    @Test
    void aPurchaseLeftPendingPayment() {
        replaceOrder("u2", PurchaseStatus.PENDING_PAYMENT, null);

        assertThat(violationsOf(Checker.Rule.EVERY_PURCHASE_ENDED))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("purchase-s1-u2 is still PENDING_PAYMENT"))
                .satisfies(v -> assertThat(v.ops()).extracting(Op::kind).containsExactly(BUY, PAY_WRONG_AMOUNT, PAY));
    }

    @Test
    void mySqlAndTheApiTellAnotherEnd() {
        apiSays.put("u3", PurchaseStatus.EXPIRED);

        assertThat(violationsOf(Checker.Rule.EVERY_PURCHASE_ENDED))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("purchase-s1-u3 is CANCELLED, the api says EXPIRED"));
    }

    @Test
    void aPurchaseTheApiStillHoldsReserved() {
        apiSays.put("u5", PurchaseStatus.RESERVED);

        assertThat(violationsOf(Checker.Rule.EVERY_PURCHASE_ENDED))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("purchase-s1-u5 RESERVED"));
    }

    @Test
    void aPaymentAnswered200ThatDidNotPay() {
        replaceOrder("u1", PurchaseStatus.EXPIRED, null);

        assertThat(violationsOf(Checker.Rule.PAID_ONLY_AS_SENT))
                .singleElement()
                .satisfies(v -> assertThat(v.detail())
                        .contains("payment p1 of purchase-s1-u1 was answered 200, but the order is EXPIRED"))
                .satisfies(v -> assertThat(v.ops()).extracting(Op::kind).contains(PAY, PAY_DUPLICATE));
    }

    @Test
    void anOrderPaidWithAPaymentNobodySent() {
        replaceOrder("u6", PurchaseStatus.PAID, "p-forged");

        assertThat(violationsOf(Checker.Rule.PAID_ONLY_AS_SENT)).singleElement().satisfies(v -> assertThat(v.detail())
                .contains("PAID with p-forged, which no payment of it sent"));
    }

    @Test
    void anOrderPaidWithTheWrongAmount() {
        replaceOrder("u2", PurchaseStatus.PAID, "w2");

        assertThat(violationsOf(Checker.Rule.PAID_ONLY_AS_SENT)).singleElement().satisfies(v -> assertThat(v.detail())
                .contains("PAID with w2, a payment of the wrong amount"));
    }

    @Test
    void aWrongAmountAccepted() {
        pay(PAY_WRONG_AMOUNT, "u3", "w3", 200, "CANCELLED");

        assertThat(violationsOf(Checker.Rule.PAID_ONLY_AS_SENT)).singleElement().satisfies(v -> assertThat(v.detail())
                .contains("payment w3", "not the price"));
    }

    @Test
    void anOrderPaidByAPaymentThatWasRefused() {
        replaceOrder("u2", PurchaseStatus.PAID, "p2");

        assertThat(violationsOf(Checker.Rule.PAID_ONLY_AS_SENT)).singleElement().satisfies(v -> assertThat(v.detail())
                .contains("PAID with p2, which was refused every time"));
    }

    @Test
    void aRefusedPaymentWithoutItsRefundRow() {
        refunds.clear();

        assertThat(violationsOf(Checker.Rule.REFUND_RECORDED_ONCE))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("payment p2 of purchase-s1-u2", "0 refund rows"));
    }

    @Test
    void aRefundRecordedTwice() {
        refund("u2", "p2");

        assertThat(violationsOf(Checker.Rule.REFUND_RECORDED_ONCE))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("payment p2", "2 refund rows"));
    }

    @Test
    void aRefundRecordedForThePaymentThatPaid() {
        refund("u1", "p1");

        assertThat(violationsOf(Checker.Rule.REFUND_RECORDED_ONCE))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("payment p1 paid the order of purchase-s1-u1"));
    }

    @Test
    void aRefundForMoneyNobodySent() {
        refund("u3", "p-ghost");

        assertThat(violationsOf(Checker.Rule.REFUND_RECORDED_ONCE))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("payment p-ghost of purchase-s1-u3", "no payment"));
    }

    @Test
    void aReleaseReturnedAUnitTwice() {
        auditSays = audit(
                2,
                0,
                2,
                AuditVerdict.FAIL,
                List.of(new io.flashsale.stores.audit.Violation("I1", "available 2 + pending 0 + paid 2 != total 3")));

        assertThat(violationsOf(Checker.Rule.AUDIT_PASSES))
                .extracting(Checker.Violation::detail)
                .containsExactly(
                        "the audit of sale s1 is FAIL: I1 available 2 + pending 0 + paid 2 != total 3",
                        "sale s1: paid 2 + pending 0 + available 2 = 4, its total is 3");
    }

    @Test
    void anAuditThatCountsAnotherPaid() {
        auditSays = audit(0, 0, 3, AuditVerdict.PASS, List.of());

        assertThat(violationsOf(Checker.Rule.AUDIT_PASSES)).singleElement().satisfies(v -> assertThat(v.detail())
                .isEqualTo("sale s1 has 2 PAID orders, its audit counts 3"));
    }

    @Test
    void aRetryAfterA202AnsweredSoldOut() {
        Op retry = refusedBuy(BUY_RETRY, "u1", "k1", "sold-out");

        assertThat(violationsOf(Checker.Rule.SAME_KEY_SAME_ANSWER))
                .singleElement()
                .satisfies(v -> assertThat(v.detail())
                        .isEqualTo("sale s1 user u1 retried key k1, answered 202 before, and was refused 409 sold-out"))
                .satisfies(v -> assertThat(v.ops()).containsExactly(history.get(0), retry));
    }

    @Test
    void aRetryOfARepeatedKeyRateLimited() {
        refusedBuy(BUY_RETRY, "u3", "k3", "rate-limited");

        assertThat(violationsOf(Checker.Rule.SAME_KEY_SAME_ANSWER))
                .singleElement()
                .satisfies(v -> assertThat(v.detail()).contains("user u3", "answered 200 before", "refused 429"));
    }

    @Test
    void aRetrySentBeforeTheAdmissionWasAnsweredMayBeRefused() {
        Op retry = refusedBuy(BUY_RETRY, "u1", "k1", "sold-out");
        history.set(history.indexOf(retry), sentAt(retry, history.get(0).answeredAtMillis() - 1));

        assertThat(violations()).isEmpty();
    }

    @Test
    void summarizesTheOperationsByKindAndOutcome() {
        var summary = RunTable.summary(history);

        assertThat(summary.keySet())
                .containsExactly(
                        BUY,
                        BUY_RETRY,
                        SECOND_CLICK,
                        PAY,
                        PAY_DUPLICATE,
                        PAY_WRONG_AMOUNT,
                        CANCEL,
                        RESTOCK,
                        WITHDRAW,
                        CLOSE,
                        REPAIR);
        assertThat(summary.get(BUY)).isEqualTo(Map.of(OK, 2L, FAIL, 2L, UNKNOWN, 3L));
        assertThat(summary.get(RESTOCK)).isEqualTo(Map.of(OK, 2L, FAIL, 1L, UNKNOWN, 0L));
        assertThat(summary.get(PAY)).isEqualTo(Map.of(OK, 1L, FAIL, 2L, UNKNOWN, 1L));
        assertThat(summary.get(CANCEL)).isEqualTo(Map.of(OK, 1L, FAIL, 0L, UNKNOWN, 0L));
    }

    @Test
    void printsTheOperationsTheirAnswersThenEachViolationWithItsOps() {
        history.clear();
        Op admitted = buy(BUY, "u1", "k1", 202);
        Op lost = buy(BUY, "u2", "k2", 0);
        Op refund = pay(PAY, "u1", "p1", 409, "EXPIRED");

        String table = RunTable.format(
                history,
                List.of(new Checker.Violation(
                        Checker.Rule.REFUND_RECORDED_ONCE, "no row", List.of(admitted, lost, refund))));

        assertThat(table)
                .isEqualTo(
                        """
                        operations              OK    FAIL  UNKNOWN   total
                        BUY                      1       0        1       2
                        PAY                      0       1        0       1
                        total                    1       1        1       3

                        answers
                        BUY               202 RESERVED                                  1
                        BUY               no answer                                     1
                        PAY               409 payment-rejected EXPIRED                  1

                        violations: 1
                        [refund-recorded-once] no row
                            #1 BUY sale s1 user u1 key k1 -> 202 RESERVED (10..15 ms)
                            #2 BUY sale s1 user u2 key k2 -> no answer (20..? ms)
                            #3 PAY purchase-s1-u1 key p1 amount 1000 -> 409 payment-rejected EXPIRED (30..35 ms)
                        """);
        assertThat(RunTable.format(history, List.of())).endsWith("\nviolations: none\n");
    }

    private List<Checker.Violation> violations() {
        return Checker.check(facts());
    }

    private List<Checker.Violation> violationsOf(Checker.Rule rule) {
        return violations().stream().filter(v -> v.rule().equals(rule)).toList();
    }

    // --- the history: ids and times follow the order of the calls ---

    private Op buy(Op.Kind kind, String user, String key, int status) {
        return op(kind, user, key, 0, status, status >= 500 ? "unavailable" : "", status < 300 ? "RESERVED" : "");
    }

    private Op refusedBuy(Op.Kind kind, String user, String key, String problemType) {
        return op(kind, user, key, 0, problemType.equals("rate-limited") ? 429 : 409, problemType, "");
    }

    /** A payment; a refusal's purchaseStatus is the problem's property of that name. */
    private Op pay(Op.Kind kind, String user, String paymentId, int status, String purchaseStatus) {
        String problemType =
                switch (status) {
                    case 409 -> "payment-rejected";
                    case 422 -> "payment-amount-mismatch";
                    default -> "";
                };
        long amount = kind == PAY_WRONG_AMOUNT ? PRICE - 1 : PRICE;
        return op(kind, user, paymentId, amount, status, problemType, purchaseStatus);
    }

    private static Op sentAt(Op op, long invokedAtMillis) {
        return new Op(
                op.id(),
                op.kind(),
                op.saleId(),
                op.userId(),
                op.key(),
                op.amountMinor(),
                invokedAtMillis,
                op.status(),
                op.problemType(),
                op.purchaseStatus(),
                op.answeredAtMillis());
    }

    /** An operator's change of the sale: no buyer, no purchase; {@code units} as the request named them. */
    private void operator(Op.Kind kind, String key, int units, int status, String problemType) {
        long id = history.size() + 1L;
        history.add(new Op(id, kind, SALE, "ops", key, units, id * 10, status, problemType, "", id * 10 + 5));
    }

    private static AuditReport withRedisStock(AuditReport audit, long redisStock) {
        return new AuditReport(
                audit.saleId(),
                audit.total(),
                audit.mysqlAvailable(),
                audit.pendingPayment(),
                audit.paid(),
                audit.expired(),
                audit.cancelled(),
                redisStock,
                audit.heldHolds(),
                audit.releasedHolds(),
                audit.buyers(),
                audit.admissionsInFlight(),
                audit.runningWorkflows(),
                audit.violations(),
                audit.result(),
                audit.redisArchivedAt());
    }

    private Op cancel(String user, int status, String purchaseStatus) {
        return op(CANCEL, user, "", 0, status, status == 409 ? "cancel-rejected" : "", purchaseStatus);
    }

    private Op op(
            Op.Kind kind, String user, String key, long amount, int status, String problemType, String purchaseStatus) {
        long id = history.size() + 1L;
        Op op = new Op(
                id,
                kind,
                SALE,
                user,
                key,
                amount,
                id * 10,
                status,
                problemType,
                purchaseStatus,
                status == 0 ? -1 : id * 10 + 5);
        history.add(op);
        return op;
    }

    // --- the facts: the api's views follow MySQL's orders unless apiSays otherwise ---

    private void order(String user, PurchaseStatus status, String paymentId) {
        orders.add(new Facts.Order(SALE, user, purchaseId(user), status, paymentId));
    }

    private void replaceOrder(String user, PurchaseStatus status, String paymentId) {
        orders.replaceAll(order ->
                order.userId().equals(user) ? new Facts.Order(SALE, user, purchaseId(user), status, paymentId) : order);
    }

    private void refund(String user, String paymentId) {
        refunds.add(new Facts.Refund(paymentId, purchaseId(user), PRICE));
    }

    private Facts facts() {
        return new Facts(
                history,
                List.of(new Facts.Sale(SALE, TOTAL - 1, auditSays != null ? auditSays : passingAudit())),
                orders,
                refunds,
                purchases(),
                changes);
    }

    private List<Facts.Purchase> purchases() {
        Set<String> users = new LinkedHashSet<>();
        history.stream().filter(op -> !op.kind().byOperator()).forEach(op -> users.add(op.userId()));
        orders.forEach(order -> users.add(order.userId()));
        List<Facts.Purchase> purchases = new ArrayList<>();
        for (String user : users) {
            Facts.Order order = orders.stream()
                    .filter(o -> o.userId().equals(user))
                    .findFirst()
                    .orElse(null);
            PurchaseStatus status =
                    apiSays.containsKey(user) ? apiSays.get(user) : order == null ? null : order.status();
            String paymentId = order == null ? null : order.paymentId();
            purchases.add(new Facts.Purchase(purchaseId(user), status, paymentId));
        }
        return purchases;
    }

    /** The audit of the orders as they are, passing. */
    private AuditReport passingAudit() {
        int paid = count(PurchaseStatus.PAID);
        int pending = count(PurchaseStatus.PENDING_PAYMENT);
        return audit(TOTAL - paid - pending, pending, paid, AuditVerdict.PASS, List.of());
    }

    private AuditReport audit(
            int available,
            int pending,
            int paid,
            AuditVerdict result,
            List<io.flashsale.stores.audit.Violation> violations) {
        return new AuditReport(
                SALE,
                TOTAL,
                available,
                pending,
                paid,
                count(PurchaseStatus.EXPIRED),
                count(PurchaseStatus.CANCELLED),
                (long) available,
                pending + paid,
                0,
                orders.size(),
                0,
                pending,
                violations,
                result,
                null);
    }

    private int count(PurchaseStatus status) {
        return (int) orders.stream().filter(o -> o.status() == status).count();
    }

    private static String purchaseId(String user) {
        return PurchaseRequest.purchaseId(SALE, user);
    }
}
