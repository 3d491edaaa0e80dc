package io.flashsale.stores.audit;

import io.flashsale.stores.admission.HoldState;
import java.util.List;
import java.util.Map;

/**
 * A sale's Redis state, read in one script (audit_snapshot.lua).
 *
 * @param stock null when Redis has no stock key for the sale
 * @param holds purchase id to its hold state
 * @param inFlight purchase ids of admissions still in the stream (their workflow may not run yet)
 * @param changes the unit changes Redis applied, by Idempotency-Key (restock.lua, withdraw.lua)
 */
record RedisSnapshot(
        boolean metaExists,
        Long stock,
        long buyers,
        long streamLength,
        long streamPending,
        Map<String, HoldState> holds,
        List<String> inFlight,
        Map<String, AppliedChange> changes) {

    /** Nothing in Redis: the snapshot of a sale whose Redis side is archived. */
    static final RedisSnapshot NONE = new RedisSnapshot(false, null, 0, 0, 0, Map.of(), List.of(), Map.of());

    /** Admissions whose workflow start is not yet confirmed: in the stream, or read and not acked. */
    boolean admissionsInFlight() {
        return streamLength > 0 || streamPending > 0;
    }

    long count(HoldState state) {
        return holds.values().stream().filter(state::equals).count();
    }

    List<String> idsIn(HoldState state) {
        return holds.entrySet().stream()
                .filter(hold -> state == hold.getValue())
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    boolean isHeld(String purchaseId) {
        return holds.get(purchaseId) == HoldState.HELD;
    }
}
