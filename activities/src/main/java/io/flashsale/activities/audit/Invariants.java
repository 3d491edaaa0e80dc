package io.flashsale.activities.audit;

import io.flashsale.workflows.purchase.PurchaseRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** Checks invariants I1-I5 of {@code docs/architecture.md} on the facts of one sale. Pure: no I/O. */
final class Invariants {

    private static final int LISTED_IDS = 5;

    private final SaleFacts facts;
    private final List<Violation> violations = new ArrayList<>();

    private Invariants(SaleFacts facts) {
        this.facts = facts;
    }

    static List<Violation> check(SaleFacts facts) {
        Invariants check = new Invariants(facts);
        check.noOversell();
        check.onePerUser();
        check.redisBalance();
        check.nothingLost();
        check.nothingTwice();
        return List.copyOf(check.violations);
    }

    /** I1: available + PENDING_PAYMENT + PAID = total, available >= 0. */
    private void noOversell() {
        int pending = facts.orders(OrderFact.PENDING_PAYMENT);
        int paid = facts.orders(OrderFact.PAID);
        report("I1", facts.available() < 0, "MySQL available is %d", facts.available());
        report(
                "I1",
                facts.available() + pending + paid != facts.total(),
                "MySQL available %d + pending %d + paid %d != total %d",
                facts.available(),
                pending,
                paid,
                facts.total());
    }

    /** I2: one order per (sale, user), and its purchase (= workflow) id is the one of that user. */
    private void onePerUser() {
        List<String> twice = facts.orders().stream()
                .collect(Collectors.groupingBy(OrderFact::userId, Collectors.counting()))
                .entrySet()
                .stream()
                .filter(user -> user.getValue() > 1)
                .map(Map.Entry::getKey)
                .toList();
        report("I2", !twice.isEmpty(), "users with more than one order: %s", ids(twice));
        List<String> foreign = facts.orders().stream()
                .filter(o -> !o.purchaseId().equals(PurchaseRequest.purchaseId(facts.saleId(), o.userId())))
                .map(OrderFact::purchaseId)
                .toList();
        report("I2", !foreign.isEmpty(), "orders whose purchase id is not purchase-{sale}-{user}: %s", ids(foreign));
    }

    /** I3: Redis stock + HELD = total (checked when no admission is in flight); sold units are HELD. */
    private void redisBalance() {
        RedisSnapshot redis = facts.redis();
        report("I3", !redis.metaExists(), "Redis has no meta for the sale (lost?): admissions answer sale-not-found");
        report("I3", redis.stock() == null, "Redis has no stock for the sale (lost?)");
        long held = redis.count(RedisSnapshot.HELD);
        report(
                "I3",
                redis.stock() != null && !redis.admissionsInFlight() && redis.stock() + held != facts.total(),
                "Redis stock %s + HELD %d != total %d",
                redis.stock(),
                held,
                facts.total());
        List<String> unheld = facts.orders().stream()
                .filter(OrderFact::holdsUnit)
                .map(OrderFact::purchaseId)
                .filter(id ->
                        !RedisSnapshot.HELD.equals(facts.redisAfter().holds().get(id)))
                .toList();
        report("I3", !unheld.isEmpty(), "orders PENDING_PAYMENT or PAID without a HELD hold in Redis: %s", ids(unheld));
    }

    /** I4: every HELD hold has a workflow, every PENDING_PAYMENT order a running one; at rest Redis = MySQL. */
    private void nothingLost() {
        List<String> held = facts.redis().idsIn(RedisSnapshot.HELD);
        List<String> orphans = held.stream()
                .filter(id -> facts.workflow(id) == WorkflowState.NOT_FOUND
                        && !facts.inFlight().contains(id))
                .toList();
        report("I4", !orphans.isEmpty(), "HELD holds without a workflow: %s", ids(orphans));
        List<String> stuck = facts.unsoldHeld(Set.of(WorkflowState.CLOSED));
        report(
                "I4",
                !stuck.isEmpty(),
                "HELD holds of purchases that ended unsold (unit never returned): %s",
                ids(stuck));
        List<String> unattended = pending(o -> facts.workflow(o.purchaseId()) != WorkflowState.RUNNING);
        report("I4", !unattended.isEmpty(), "PENDING_PAYMENT orders without a running workflow: %s", ids(unattended));
        List<String> overdue = pending(OrderFact::overdue);
        report("I4", !overdue.isEmpty(), "PENDING_PAYMENT orders long past their pay deadline: %s", ids(overdue));
        report(
                "I4",
                atRest() && !Objects.equals(facts.redis().stock(), (long) facts.available()),
                "at rest, Redis stock %s != MySQL available %d",
                facts.redis().stock(),
                facts.available());
    }

    /** I5: no unit returned twice: no RELEASED hold of a sold unit; Redis stock within total. */
    private void nothingTwice() {
        Map<String, OrderFact> orders = facts.ordersByPurchase();
        List<String> returnedWhileSold = facts.redisAfter().idsIn(RedisSnapshot.RELEASED).stream()
                .filter(id -> orders.containsKey(id) && orders.get(id).holdsUnit())
                .toList();
        report(
                "I5",
                !returnedWhileSold.isEmpty(),
                "RELEASED holds whose order is PENDING_PAYMENT or PAID: %s",
                ids(returnedWhileSold));
        Long stock = facts.redis().stock();
        report("I5", stock != null && stock > facts.total(), "Redis stock %s exceeds total %d", stock, facts.total());
        report(
                "I5",
                facts.available() > facts.total(),
                "MySQL available %d exceeds total %d",
                facts.available(),
                facts.total());
    }

    /** No admission in flight, no running purchase, nothing awaiting payment. */
    private boolean atRest() {
        return !facts.redis().admissionsInFlight()
                && facts.runningWorkflows() == 0
                && facts.orders(OrderFact.PENDING_PAYMENT) == 0;
    }

    private List<String> pending(Predicate<OrderFact> filter) {
        return facts.orders().stream()
                .filter(o -> OrderFact.PENDING_PAYMENT.equals(o.status()))
                .filter(filter)
                .map(OrderFact::purchaseId)
                .sorted()
                .toList();
    }

    private void report(String invariant, boolean broken, String format, Object... args) {
        if (broken) {
            violations.add(new Violation(invariant, format.formatted(args)));
        }
    }

    /** "3 [a, b, c]", at most {@value #LISTED_IDS} ids. */
    private static String ids(Collection<String> ids) {
        String listed = ids.stream().sorted().limit(LISTED_IDS).collect(Collectors.joining(", "));
        return ids.size() + " [" + listed + (ids.size() > LISTED_IDS ? ", ..." : "") + "]";
    }
}
