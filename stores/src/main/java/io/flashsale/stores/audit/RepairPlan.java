package io.flashsale.stores.audit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a repair changes in Redis, derived from MySQL and Temporal facts, never from Redis alone.
 *
 * @param hold purchases whose order is PENDING_PAYMENT or PAID and whose hold is not HELD
 * @param release HELD holds of purchases that ended without a sale: no PENDING_PAYMENT or PAID order,
 *     workflow not running, admission not in flight
 * @param buyers user id to purchase id of every order (restored where Redis lost the buyer)
 * @param changes Idempotency-Key to units of every restock and withdrawal MySQL recorded: what Redis
 *     counts as applied afterwards
 */
record RepairPlan(List<String> hold, List<String> release, Map<String, String> buyers, Map<String, Integer> changes) {

    static RepairPlan of(SaleFacts facts) {
        List<String> hold = facts.orders().stream()
                .filter(OrderFact::holdsUnit)
                .map(OrderFact::purchaseId)
                .filter(id -> !facts.redisAfter().isHeld(id))
                .toList();
        List<String> release = facts.unsoldHeld(Set.of(WorkflowState.CLOSED, WorkflowState.NOT_FOUND));
        Map<String, String> buyers = new TreeMap<>();
        facts.orders().forEach(o -> buyers.put(o.userId(), o.purchaseId()));
        return new RepairPlan(hold, release, buyers, units(facts.changes()));
    }

    /** The same plan with the unit changes MySQL has now (read with the sale's row locked). */
    RepairPlan withChanges(Map<String, AppliedChange> recorded) {
        return new RepairPlan(hold, release, buyers, units(recorded));
    }

    private static Map<String, Integer> units(Map<String, AppliedChange> recorded) {
        Map<String, Integer> changes = new LinkedHashMap<>();
        recorded.forEach((key, change) -> changes.put(key, change.units()));
        return changes;
    }
}
