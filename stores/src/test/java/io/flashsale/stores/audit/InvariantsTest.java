package io.flashsale.stores.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.flashsale.stores.admission.HoldState;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InvariantsTest {

    private static final String SALE = "s1";

    @Test
    void passesASettledSale() {
        SaleFacts facts = new Facts(4, 2)
                .order("a", "PAID", "HELD", WorkflowState.CLOSED)
                .order("b", "EXPIRED", "RELEASED", null)
                .order("c", "CANCELLED", "RELEASED", null)
                .order("d", "PAID", "HELD", WorkflowState.CLOSED)
                .stock(2)
                .build();

        assertThat(Invariants.check(facts)).isEmpty();
    }

    @Test
    void passesASaleWithPurchasesAwaitingPayment() {
        SaleFacts facts = new Facts(3, 1)
                .order("a", "PENDING_PAYMENT", "HELD", WorkflowState.RUNNING)
                .order("b", "PAID", "HELD", WorkflowState.CLOSED)
                .hold("c", "HELD", WorkflowState.RUNNING)
                .stock(0)
                .build();

        assertThat(Invariants.check(facts)).isEmpty();
    }

    @Test
    void passesASettledSaleArchivedInRedisOnMySqlAlone() {
        SaleFacts facts = new Facts(4, 2)
                .order("a", "PAID", null, null)
                .order("b", "EXPIRED", null, null)
                .order("c", "PAID", null, null)
                .archived()
                .build();

        assertThat(Invariants.check(facts)).isEmpty();
    }

    @Test
    void reportsAPendingOrderAndOversellOfASaleArchivedInRedis() {
        SaleFacts facts = new Facts(2, 1)
                .order("a", "PAID", null, null)
                .order("b", "PENDING_PAYMENT", null, null)
                .archived()
                .build();

        assertThat(Invariants.check(facts))
                .extracting(Violation::invariant, Violation::detail)
                .containsExactly(
                        tuple("I1", "MySQL available 1 + pending 1 + paid 1 != total 2"),
                        tuple("I4", "PENDING_PAYMENT orders of a sale archived in Redis: 1 [purchase-s1-b]"));
    }

    @Test
    void reportsOversellInMySql() {
        SaleFacts facts = new Facts(2, 1)
                .order("a", "PAID", "HELD", WorkflowState.CLOSED)
                .order("b", "PAID", "HELD", WorkflowState.CLOSED)
                .stock(0)
                .build();

        assertThat(invariants(facts)).containsExactly("I1", "I4");
    }

    @Test
    void reportsASecondOrderOfAUser() {
        Facts facts =
                new Facts(2, 0).order("a", "PAID", "HELD", WorkflowState.CLOSED).stock(0);
        facts.orders.add(new OrderFact("purchase-s1-other", SALE, "a", PurchaseStatus.PAID, false));
        facts.holds.put("purchase-s1-other", HoldState.HELD);
        facts.workflows.put("purchase-s1-other", WorkflowState.CLOSED);

        assertThat(invariants(facts.build())).containsExactly("I2", "I2");
    }

    @Test
    void reportsTheDriftWhenRedisLostTheSale() {
        SaleFacts facts = new Facts(3, 1)
                .order("a", "PENDING_PAYMENT", null, WorkflowState.RUNNING)
                .order("b", "PAID", null, null)
                .lostRedis()
                .build();

        assertThat(Invariants.check(facts))
                .extracting(Violation::invariant, Violation::detail)
                .containsExactly(
                        tuple("I3", "Redis has no meta for the sale (lost?): admissions answer sale-not-found"),
                        tuple("I3", "Redis has no stock for the sale (lost?)"),
                        tuple(
                                "I3",
                                "orders PENDING_PAYMENT or PAID without a HELD hold in Redis: 2 [purchase-s1-a, purchase-s1-b]"));
    }

    @Test
    void excusesAHoldWithoutWorkflowWhileItsAdmissionIsInFlight() {
        Facts facts = new Facts(2, 2).hold("a", "HELD", WorkflowState.NOT_FOUND).stock(1);

        assertThat(invariants(facts.build())).containsExactly("I4", "I4");
        assertThat(invariants(facts.inFlight("a").build())).isEmpty();
    }

    @Test
    void reportsAPendingOrderWhoseWorkflowIsGone() {
        SaleFacts facts = new Facts(1, 0)
                .order("a", "PENDING_PAYMENT", "HELD", WorkflowState.CLOSED)
                .stock(0)
                .build();

        assertThat(invariants(facts)).containsExactly("I4");
    }

    @Test
    void reportsAHeldUnitNobodyWillReturn() {
        SaleFacts facts = new Facts(2, 2)
                .order("a", "EXPIRED", "HELD", WorkflowState.CLOSED)
                .stock(1)
                .build();

        assertThat(invariants(facts)).containsExactly("I4", "I4");
    }

    @Test
    void reportsAUnitReturnedWhileSold() {
        SaleFacts facts = new Facts(2, 1)
                .order("a", "PAID", "RELEASED", WorkflowState.CLOSED)
                .stock(3)
                .build();

        assertThat(invariants(facts)).contains("I5").doesNotContain("I1", "I2");
    }

    @Test
    void reportsAnOrderWhosePurchaseIdIsNotThatOfItsOwnRow() {
        Facts facts =
                new Facts(2, 0).order("a", "PAID", "HELD", WorkflowState.CLOSED).stock(0);
        facts.orders.add(new OrderFact("purchase-s1-b", "S1", "b", PurchaseStatus.PAID, false));
        facts.holds.put("purchase-s1-b", HoldState.HELD);

        assertThat(Invariants.check(facts.build()))
                .extracting(Violation::invariant, Violation::detail)
                .containsExactly(tuple(
                        "I2",
                        "orders whose purchase id is not purchase-{sale}-{user} of their own row, or of another sale:"
                                + " 1 [purchase-s1-b]"));
    }

    @Test
    void reportsAWorkflowAwaitingPaymentWhoseOrderIsNotPending() {
        SaleFacts facts = new Facts(2, 2)
                .order("a", "CANCELLED", "HELD", WorkflowState.RUNNING)
                .awaitingPayment("a")
                .stock(1)
                .build();

        assertThat(Invariants.check(facts))
                .extracting(Violation::invariant, Violation::detail)
                .containsExactly(tuple(
                        "I4",
                        "workflows awaiting payment without a PENDING_PAYMENT order of their own: 1 [purchase-s1-a]"));
    }

    @Test
    void reportsRedisDriftWhilePurchasesRunAndAdmissionsAreInFlight() {
        SaleFacts facts = new Facts(3, 1)
                .order("a", "PENDING_PAYMENT", "HELD", WorkflowState.RUNNING)
                .order("b", "PAID", "HELD", WorkflowState.CLOSED)
                .hold("c", "HELD", WorkflowState.RUNNING)
                .inFlight("c")
                .stock(1)
                .build();

        assertThat(Invariants.check(facts))
                .extracting(Violation::invariant, Violation::detail)
                .containsExactly(tuple("I4", "Redis stock 1 + HELD holds in flight 1 != MySQL available 1"));
    }

    @Test
    void passesSoldPurchasesWhoseWorkflowsRetentionRemoved() {
        SaleFacts facts = new Facts(4, 2)
                .order("a", "PAID", "HELD", WorkflowState.NOT_FOUND)
                .order("b", "EXPIRED", "RELEASED", WorkflowState.NOT_FOUND)
                .order("c", "CANCELLED", "RELEASED", WorkflowState.NOT_FOUND)
                .order("d", "PAID", "HELD", WorkflowState.NOT_FOUND)
                .stock(2)
                .build();

        assertThat(Invariants.check(facts)).isEmpty();
    }

    @Test
    void namesTheVoidHoldsWhenRedisStockAndHoldsDoNotAddUp() {
        SaleFacts facts = new Facts(3, 0)
                .order("a", "PENDING_PAYMENT", null, WorkflowState.RUNNING)
                .order("b", "PENDING_PAYMENT", "HELD", WorkflowState.RUNNING)
                .order("c", "PENDING_PAYMENT", "HELD", WorkflowState.RUNNING)
                .hold("d", "VOID", WorkflowState.CLOSED)
                .stock(0)
                .build();

        assertThat(Invariants.check(facts))
                .extracting(Violation::invariant, Violation::detail)
                .containsExactly(
                        tuple(
                                "I3",
                                "Redis stock 0 + HELD 2 != total 3; VOID holds (admitted by Redis, no unit in MySQL):"
                                        + " 1 [purchase-s1-d]"),
                        tuple("I3", "orders PENDING_PAYMENT or PAID without a HELD hold in Redis: 1 [purchase-s1-a]"));
    }

    @Test
    void planRestoresSoldHoldsReleasesDeadOnesAndKeepsRunningOnes() {
        SaleFacts facts = new Facts(5, 2)
                .order("a", "PENDING_PAYMENT", null, WorkflowState.RUNNING)
                .order("b", "PAID", "RELEASED", WorkflowState.CLOSED)
                .order("c", "EXPIRED", "HELD", WorkflowState.CLOSED)
                .hold("d", "HELD", WorkflowState.RUNNING)
                .hold("e", "HELD", WorkflowState.NOT_FOUND)
                .stock(0)
                .build();

        RepairPlan plan = RepairPlan.of(facts);

        assertThat(plan.hold()).containsExactly("purchase-s1-a", "purchase-s1-b");
        assertThat(plan.release()).containsExactly("purchase-s1-c", "purchase-s1-e");
        assertThat(plan.buyers()).containsOnlyKeys("a", "b", "c");
    }

    @Test
    void passesASaleBothStoresRestockedAndWithdrewFrom() {
        SaleFacts facts = new Facts(7, 6)
                .order("a", "PAID", "HELD", WorkflowState.CLOSED)
                .stock(6)
                .mysqlChange("r1", 3, true)
                .redisChange("r1", 3, true)
                .mysqlChange("w1", -1, true)
                .redisChange("w1", -1, true)
                .build();

        assertThat(Invariants.check(facts)).isEmpty();
    }

    @Test
    void excusesARestockMySqlAppliedAndRedisNotYetUntilTheGraceRunsOut() {
        Facts facts =
                new Facts(8, 7).order("a", "PAID", "HELD", WorkflowState.CLOSED).stock(4);

        assertThat(Invariants.check(facts.mysqlChange("r1", 3, false).build())).isEmpty();
        assertThat(Invariants.check(facts.mysqlChange("r1", 3, true).build()))
                .extracting(Violation::invariant, Violation::detail)
                .containsExactly(tuple(
                        "I3",
                        "restocks or withdrawals applied in one store only for over 30 s (repeat them with their"
                                + " Idempotency-Key, or repair the sale): 1 [r1]"));
    }

    @Test
    void excusesAWithdrawalRedisAppliedAndMySqlNotYetUntilTheGraceRunsOut() {
        Facts facts = new Facts(5, 5).stock(3);

        assertThat(Invariants.check(facts.redisChange("w1", -2, false).build())).isEmpty();
        assertThat(invariants(facts.redisChange("w1", -2, true).build())).containsExactly("I3");
    }

    @Test
    void reportsRedisStockApartFromMySqlWhateverTheChangesBothApplied() {
        SaleFacts facts = new Facts(8, 8)
                .stock(5)
                .mysqlChange("r1", 3, true)
                .redisChange("r1", 3, true)
                .build();

        assertThat(Invariants.check(facts))
                .extracting(Violation::invariant, Violation::detail)
                .containsExactly(
                        tuple(
                                "I3",
                                "Redis stock 5 + HELD 0 != total 8; VOID holds (admitted by Redis, no unit in MySQL): 0 []"),
                        tuple("I4", "at rest, Redis stock 5 != MySQL available 8"));
    }

    private static List<String> invariants(SaleFacts facts) {
        return Invariants.check(facts).stream().map(Violation::invariant).toList();
    }

    /** Builds facts: users are named, their purchase id is purchase-s1-{user}. */
    private static final class Facts {
        private final int total;
        private final int available;
        private final List<OrderFact> orders = new ArrayList<>();
        private final Map<String, HoldState> holds = new HashMap<>();
        private final Set<String> awaitingPayment = new HashSet<>();
        private final Map<String, WorkflowState> workflows = new HashMap<>();
        private List<String> inFlight = List.of();
        private final Map<String, AppliedChange> changes = new HashMap<>();
        private final Map<String, AppliedChange> redisChanges = new HashMap<>();
        private Long stock;
        private boolean meta = true;
        private Instant archivedAt;

        Facts(int total, int available) {
            this.total = total;
            this.available = available;
        }

        Facts order(String user, String status, String hold, WorkflowState workflow) {
            orders.add(new OrderFact(id(user), SALE, user, PurchaseStatus.valueOf(status), false));
            return hold(user, hold, workflow);
        }

        Facts hold(String user, String state, WorkflowState workflow) {
            if (state != null) {
                holds.put(id(user), HoldState.valueOf(state));
            }
            if (workflow != null) {
                workflows.put(id(user), workflow);
            }
            return this;
        }

        Facts stock(long units) {
            stock = units;
            return this;
        }

        /** The sale's Redis side is archived: the orders stay, holds and workflows are not looked at. */
        Facts archived() {
            archivedAt = Instant.parse("2026-01-01T00:00:00Z");
            return lostRedis();
        }

        Facts lostRedis() {
            stock = null;
            meta = false;
            return this;
        }

        Facts inFlight(String user) {
            inFlight = List.of(id(user));
            return this;
        }

        /** MySQL recorded a restock (units > 0) or withdrawal (units < 0); overdue: over the grace ago. */
        Facts mysqlChange(String key, int units, boolean overdue) {
            changes.put(key, new AppliedChange(units, overdue));
            return this;
        }

        /** Redis applied a restock or withdrawal under {@code key}. */
        Facts redisChange(String key, int units, boolean overdue) {
            redisChanges.put(key, new AppliedChange(units, overdue));
            return this;
        }

        Facts awaitingPayment(String user) {
            awaitingPayment.add(id(user));
            return this;
        }

        SaleFacts build() {
            if (archivedAt != null) {
                return SaleFacts.archived(
                        SALE,
                        new MySqlFacts.Snapshot(total, available, List.copyOf(orders), Map.copyOf(changes)),
                        archivedAt);
            }
            RedisSnapshot redis = new RedisSnapshot(
                    meta,
                    stock,
                    orders.size(),
                    inFlight.size(),
                    0,
                    Map.copyOf(holds),
                    inFlight,
                    Map.copyOf(redisChanges));
            return new SaleFacts(
                    SALE,
                    total,
                    available,
                    List.copyOf(orders),
                    Map.copyOf(changes),
                    redis,
                    Map.copyOf(workflows),
                    Set.copyOf(awaitingPayment),
                    redis,
                    null);
        }

        private static String id(String user) {
            return PurchaseRequest.purchaseId(SALE, user);
        }
    }
}
