package io.flashsale.activities.audit;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gathers {@link SaleFacts} in the order they need: Redis snapshot, Temporal for every HELD hold
 * and PENDING_PAYMENT order, MySQL (one transaction), Temporal for orders that appeared meanwhile,
 * Redis again.
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

    /** Empty when MySQL does not know the sale. */
    Optional<SaleFacts> read(String saleId) {
        RedisSnapshot before = redis.snapshot(saleId);
        return read(saleId, before);
    }

    /** The facts, starting from a Redis snapshot the caller took. */
    Optional<SaleFacts> read(String saleId, RedisSnapshot before) {
        Map<String, WorkflowState> workflows = new LinkedHashMap<>();
        Set<String> ids = new LinkedHashSet<>(before.idsIn(RedisSnapshot.HELD));
        mysql.read(saleId).ifPresent(first -> ids.addAll(pendingIds(first)));
        describe(ids, workflows);
        return mysql.read(saleId).map(snapshot -> {
            describe(pendingIds(snapshot), workflows);
            return new SaleFacts(
                    saleId,
                    snapshot.total(),
                    snapshot.available(),
                    snapshot.orders(),
                    before,
                    Map.copyOf(workflows),
                    redis.snapshot(saleId));
        });
    }

    private void describe(Set<String> ids, Map<String, WorkflowState> workflows) {
        ids.stream().filter(id -> !workflows.containsKey(id)).forEach(id -> workflows.put(id, temporal.state(id)));
    }

    private static Set<String> pendingIds(MySqlFacts.Snapshot snapshot) {
        Set<String> ids = new LinkedHashSet<>();
        snapshot.orders().stream()
                .filter(o -> OrderFact.PENDING_PAYMENT.equals(o.status()))
                .forEach(o -> ids.add(o.purchaseId()));
        return ids;
    }
}
