package io.flashsale.stores.audit;

import io.flashsale.stores.admission.HoldState;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Everything the audit knows of one sale, gathered in this order: Redis ({@code redis}), Temporal
 * ({@code workflows}), MySQL ({@code total}, {@code available}, {@code orders}), Temporal again for
 * {@code awaitingPayment}, Redis again ({@code redisAfter}). Each check reads the facts whose order
 * makes it immune to purchases moving on while the audit runs (see {@link Invariants}).
 *
 * @param changes the unit changes (restock, withdrawal) MySQL recorded, by Idempotency-Key
 * @param workflows state of the workflow of every HELD hold and every PENDING_PAYMENT order
 * @param awaitingPayment purchases whose running workflow sat awaiting payment (nothing in progress)
 *     both before MySQL was read and after: their order cannot have moved on meanwhile
 * @param redisArchivedAt when the sale's Redis side was archived (then MySQL alone is checked);
 *     null: it lives in Redis
 */
record SaleFacts(
        String saleId,
        int total,
        int available,
        List<OrderFact> orders,
        Map<String, AppliedChange> changes,
        RedisSnapshot redis,
        Map<String, WorkflowState> workflows,
        Set<String> awaitingPayment,
        RedisSnapshot redisAfter,
        Instant redisArchivedAt) {

    /** The facts of a sale whose Redis side is archived: MySQL only, no Redis, no workflows. */
    static SaleFacts archived(String saleId, MySqlFacts.Snapshot mysql, Instant archivedAt) {
        return new SaleFacts(
                saleId,
                mysql.total(),
                mysql.available(),
                mysql.orders(),
                mysql.changes(),
                RedisSnapshot.NONE,
                Map.of(),
                Set.of(),
                RedisSnapshot.NONE,
                archivedAt);
    }

    boolean redisArchived() {
        return redisArchivedAt != null;
    }

    /**
     * How many units Redis' total is ahead of MySQL's: the unit changes the first Redis snapshot
     * applied and MySQL not yet, minus those MySQL applied and that snapshot not yet. Each store
     * applies a change atomically with its key (a restock MySQL first, a withdrawal Redis first), so
     * Redis' total is MySQL's plus this whatever interleaving the audit read.
     */
    int unitsAhead() {
        int ahead = 0;
        for (Map.Entry<String, AppliedChange> inRedis : redis.changes().entrySet()) {
            ahead += changes.containsKey(inRedis.getKey())
                    ? 0
                    : inRedis.getValue().units();
        }
        for (Map.Entry<String, AppliedChange> inMySql : changes.entrySet()) {
            ahead -= redis.changes().containsKey(inMySql.getKey())
                    ? 0
                    : inMySql.getValue().units();
        }
        return ahead;
    }

    /** The total Redis' stock and HELD holds must add up to: MySQL's, with the unit changes in flight. */
    long redisTotal() {
        return (long) total + unitsAhead();
    }

    /**
     * Keys of unit changes one store applied longer than the grace ago that the other store still
     * lacks (in both Redis snapshots, or in MySQL): a change left half done by a crash.
     */
    List<String> halfDoneChanges() {
        Stream<String> mysqlOnly = changes.entrySet().stream()
                .filter(change -> change.getValue().overdue())
                .map(Map.Entry::getKey)
                .filter(key -> !redis.changes().containsKey(key)
                        && !redisAfter.changes().containsKey(key));
        Stream<String> redisOnly = redis.changes().entrySet().stream()
                .filter(change -> change.getValue().overdue())
                .map(Map.Entry::getKey)
                .filter(key -> !changes.containsKey(key) && redisAfter.changes().containsKey(key));
        return Stream.concat(mysqlOnly, redisOnly).toList();
    }

    int orders(PurchaseStatus status) {
        return (int) orders.stream().filter(o -> o.status() == status).count();
    }

    Map<String, OrderFact> ordersByPurchase() {
        return orders.stream().collect(Collectors.toMap(OrderFact::purchaseId, o -> o, (a, b) -> a));
    }

    long runningWorkflows() {
        return workflows.values().stream().filter(WorkflowState.RUNNING::equals).count();
    }

    WorkflowState workflow(String purchaseId) {
        return workflows.getOrDefault(purchaseId, WorkflowState.NOT_FOUND);
    }

    Set<String> inFlight() {
        return Set.copyOf(redis.inFlight());
    }

    /** HELD holds (first snapshot) of purchases without a PENDING_PAYMENT or PAID order: units in flight. */
    List<String> heldWithoutSale() {
        Map<String, OrderFact> orders = ordersByPurchase();
        return redis.idsIn(HoldState.HELD).stream()
                .filter(id -> orders.get(id) == null || !orders.get(id).holdsUnit())
                .toList();
    }

    /**
     * HELD before the workflows were described and still HELD after MySQL was read, whose purchase
     * ended without a sale (workflow closed or missing, no PENDING_PAYMENT or PAID order), and whose
     * admission is not in flight: a unit nobody will ever give back.
     */
    List<String> unsoldHeld(Set<WorkflowState> states) {
        Set<String> stillHeld = Set.copyOf(redisAfter.idsIn(HoldState.HELD));
        return heldWithoutSale().stream()
                .filter(stillHeld::contains)
                .filter(id -> states.contains(workflow(id)))
                .filter(id -> !inFlight().contains(id))
                .toList();
    }
}
