package io.flashsale.stores.audit;

import io.flashsale.stores.admission.HoldState;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
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
        if (facts.redisArchived()) {
            return check.archived();
        }
        check.noOversell();
        check.onePerUser();
        check.redisBalance();
        check.nothingLost();
        check.nothingTwice();
        return List.copyOf(check.violations);
    }

    /**
     * A sale whose Redis side is archived: what MySQL alone can show (I1, I2, the available count
     * within total) and that every purchase is still final, as it was when the sale was archived.
     */
    private List<Violation> archived() {
        noOversell();
        onePerUser();
        List<String> pending = pendingOrders();
        report("I4", !pending.isEmpty(), "PENDING_PAYMENT orders of a sale archived in Redis: %s", ids(pending));
        mysqlWithinTotal();
        return List.copyOf(violations);
    }

    /** I1: available + PENDING_PAYMENT + PAID = total, available >= 0. */
    private void noOversell() {
        int pending = facts.orders(PurchaseStatus.PENDING_PAYMENT);
        int paid = facts.orders(PurchaseStatus.PAID);
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

    /**
     * I2: one order per (sale, user), and its purchase (= workflow) id is exactly the one of its own
     * row's sale and user.
     */
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
                .filter(o -> !o.saleId().equals(facts.saleId())
                        || !o.purchaseId().equals(PurchaseRequest.purchaseId(o.saleId(), o.userId())))
                .map(OrderFact::purchaseId)
                .toList();
        report(
                "I2",
                !foreign.isEmpty(),
                "orders whose purchase id is not purchase-{sale}-{user} of their own row, or of another sale: %s",
                ids(foreign));
    }

    /**
     * I3: Redis stock + HELD = total (checked when no admission is in flight), the total as Redis
     * has it with the unit changes in flight ({@link SaleFacts#redisTotal}); no unit change is left
     * half done; sold units are HELD. VOID holds are named: units Redis admitted that MySQL never had.
     */
    private void redisBalance() {
        RedisSnapshot redis = facts.redis();
        report("I3", !redis.metaExists(), "Redis has no meta for the sale (lost?): admissions answer sale-not-found");
        report("I3", redis.stock() == null, "Redis has no stock for the sale (lost?)");
        long held = redis.count(HoldState.HELD);
        report(
                "I3",
                redis.stock() != null && !redis.admissionsInFlight() && redis.stock() + held != facts.redisTotal(),
                "Redis stock %s + HELD %d != total %d; VOID holds (admitted by Redis, no unit in MySQL): %s",
                redis.stock(),
                held,
                facts.redisTotal(),
                ids(redis.idsIn(HoldState.VOID)));
        List<String> halfDone = facts.halfDoneChanges();
        report(
                "I3",
                !halfDone.isEmpty(),
                "restocks or withdrawals applied in one store only for over %d s (repeat them with their"
                        + " Idempotency-Key, or repair the sale): %s",
                MySqlFacts.OVERDUE_GRACE_SECONDS,
                ids(halfDone));
        List<String> unheld = facts.orders().stream()
                .filter(OrderFact::holdsUnit)
                .map(OrderFact::purchaseId)
                .filter(id -> !facts.redisAfter().isHeld(id))
                .toList();
        report("I3", !unheld.isEmpty(), "orders PENDING_PAYMENT or PAID without a HELD hold in Redis: %s", ids(unheld));
    }

    /**
     * I4: every HELD hold of an unsold purchase has a workflow (a sold one may have outlived its
     * workflow's retention), every PENDING_PAYMENT order a running one, every workflow awaiting
     * payment a PENDING_PAYMENT order of its own; Redis and MySQL agree but for holds in flight.
     */
    private void nothingLost() {
        List<String> orphans = facts.heldWithoutSale().stream()
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
        List<String> adrift = facts.awaitingPayment().stream()
                .filter(id -> !pendingOrders().contains(id))
                .toList();
        report(
                "I4",
                !adrift.isEmpty(),
                "workflows awaiting payment without a PENDING_PAYMENT order of their own: %s",
                ids(adrift));
        stockAgrees();
    }

    /**
     * At rest Redis stock = MySQL available. While purchases run, Redis stock + HELD holds in flight
     * (no PENDING_PAYMENT or PAID order yet, or any more) = MySQL available: the first Redis snapshot
     * is read before MySQL, and every order written or ended in between moves a hold in or out of
     * flight along with the unit.
     */
    private void stockAgrees() {
        Long stock = facts.redis().stock();
        long available = (long) facts.available() + facts.unitsAhead();
        report(
                "I4",
                atRest() && !Objects.equals(stock, available),
                "at rest, Redis stock %s != MySQL available %d",
                stock,
                available);
        int inFlight = facts.heldWithoutSale().size();
        report(
                "I4",
                !atRest() && stock != null && stock + inFlight != available,
                "Redis stock %s + HELD holds in flight %d != MySQL available %d",
                stock,
                inFlight,
                available);
    }

    /** I5: no unit returned twice: no RELEASED hold of a sold unit; Redis stock within total. */
    private void nothingTwice() {
        Map<String, OrderFact> orders = facts.ordersByPurchase();
        List<String> returnedWhileSold = facts.redisAfter().idsIn(HoldState.RELEASED).stream()
                .filter(id -> orders.containsKey(id) && orders.get(id).holdsUnit())
                .toList();
        report(
                "I5",
                !returnedWhileSold.isEmpty(),
                "RELEASED holds whose order is PENDING_PAYMENT or PAID: %s",
                ids(returnedWhileSold));
        Long stock = facts.redis().stock();
        report(
                "I5",
                stock != null && stock > facts.redisTotal(),
                "Redis stock %s exceeds total %d",
                stock,
                facts.redisTotal());
        mysqlWithinTotal();
    }

    private void mysqlWithinTotal() {
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
                && facts.orders(PurchaseStatus.PENDING_PAYMENT) == 0;
    }

    private List<String> pendingOrders() {
        return pending(o -> true);
    }

    private List<String> pending(Predicate<OrderFact> filter) {
        return facts.orders().stream()
                .filter(OrderFact::isPending)
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
