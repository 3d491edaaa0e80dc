package io.flashsale.stores.audit;

import io.flashsale.stores.admission.HoldState;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Gathers {@link SaleFacts} in the order they need: Redis snapshot, Temporal for every HELD hold
 * and PENDING_PAYMENT order, MySQL (one transaction), Temporal for orders that appeared meanwhile
 * and again for workflows awaiting payment whose order is not pending, Redis again.
 */
class SaleFactsReader {

    private final MySqlFacts mysql;
    private final RedisFacts redis;
    private final WorkflowFacts temporal;

    SaleFactsReader(MySqlFacts mysql, RedisFacts redis, WorkflowFacts temporal) {
        this.mysql = mysql;
        this.redis = redis;
        this.temporal = temporal;
    }

    /** The facts of a sale whose Redis side is archived: MySQL alone. Empty when MySQL does not know it. */
    Optional<SaleFacts> readArchived(String saleId, Instant archivedAt) {
        return mysql.read(saleId).map(snapshot -> SaleFacts.archived(saleId, snapshot, archivedAt));
    }

    /** Empty when MySQL does not know the sale. */
    Optional<SaleFacts> read(String saleId) {
        RedisSnapshot before = redis.snapshot(saleId);
        return read(saleId, before);
    }

    /** The facts, starting from a Redis snapshot the caller took. */
    Optional<SaleFacts> read(String saleId, RedisSnapshot before) {
        Map<String, WorkflowFacts.Described> workflows = new LinkedHashMap<>();
        Set<String> ids = new LinkedHashSet<>(before.idsIn(HoldState.HELD));
        mysql.read(saleId).ifPresent(first -> ids.addAll(pendingIds(first)));
        describe(ids, workflows);
        return mysql.read(saleId).map(snapshot -> {
            describe(pendingIds(snapshot), workflows);
            return new SaleFacts(
                    saleId,
                    snapshot.total(),
                    snapshot.available(),
                    snapshot.orders(),
                    snapshot.changes(),
                    before,
                    states(workflows),
                    stillAwaitingPayment(workflows, snapshot),
                    redis.snapshot(saleId),
                    null);
        });
    }

    private void describe(Set<String> ids, Map<String, WorkflowFacts.Described> workflows) {
        ids.stream().filter(id -> !workflows.containsKey(id)).forEach(id -> workflows.put(id, temporal.describe(id)));
    }

    /**
     * Awaiting payment before MySQL was read, its order (by its own purchase id) not pending in MySQL,
     * and still awaiting payment now: the workflow did nothing in between, so its order was ended
     * (or never was its own) behind its back. Purchases whose order is pending need no second look.
     */
    private Set<String> stillAwaitingPayment(
            Map<String, WorkflowFacts.Described> workflows, MySqlFacts.Snapshot snapshot) {
        Set<String> pending = pendingIds(snapshot);
        return workflows.entrySet().stream()
                .filter(workflow -> workflow.getValue().awaitingPayment())
                .map(Map.Entry::getKey)
                .filter(id -> !pending.contains(id))
                .filter(id -> temporal.describe(id).awaitingPayment())
                .collect(Collectors.toUnmodifiableSet());
    }

    private static Map<String, WorkflowState> states(Map<String, WorkflowFacts.Described> workflows) {
        Map<String, WorkflowState> states = new LinkedHashMap<>();
        workflows.forEach((id, described) -> states.put(id, described.state()));
        return Map.copyOf(states);
    }

    private static Set<String> pendingIds(MySqlFacts.Snapshot snapshot) {
        Set<String> ids = new LinkedHashSet<>();
        snapshot.orders().stream().filter(OrderFact::isPending).forEach(o -> ids.add(o.purchaseId()));
        return ids;
    }
}
