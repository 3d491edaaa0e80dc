package io.flashsale.stores.audit;

import io.flashsale.stores.admission.HoldState;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Instant;
import java.util.List;

/**
 * One sale's row of the audit: the counts behind invariants I1-I5, the violations and the verdict.
 *
 * @param redisStock null when Redis has no stock for the sale
 * @param admissionsInFlight entries in the sale's admission stream (workflow start not confirmed)
 * @param runningWorkflows running workflows among the purchases with a HELD hold or a
 *     PENDING_PAYMENT order
 * @param result {@link AuditVerdict#PASS} without violations, else {@link AuditVerdict#FAIL}
 * @param redisArchivedAt when the sale's Redis side was archived (the sale ended and every purchase
 *     was final): the Redis and workflow columns are empty and only MySQL was checked; null: the sale
 *     lives in Redis and everything was checked
 */
public record AuditReport(
        String saleId,
        int total,
        int mysqlAvailable,
        int pendingPayment,
        int paid,
        int expired,
        int cancelled,
        Long redisStock,
        long heldHolds,
        long releasedHolds,
        long buyers,
        long admissionsInFlight,
        long runningWorkflows,
        List<Violation> violations,
        AuditVerdict result,
        Instant redisArchivedAt) {

    static AuditReport of(SaleFacts facts, List<Violation> violations) {
        RedisSnapshot redis = facts.redis();
        return new AuditReport(
                facts.saleId(),
                facts.total(),
                facts.available(),
                facts.orders(PurchaseStatus.PENDING_PAYMENT),
                facts.orders(PurchaseStatus.PAID),
                facts.orders(PurchaseStatus.EXPIRED),
                facts.orders(PurchaseStatus.CANCELLED),
                redis.stock(),
                redis.count(HoldState.HELD),
                redis.count(HoldState.RELEASED),
                redis.buyers(),
                Math.max(redis.streamLength(), redis.streamPending()),
                facts.runningWorkflows(),
                violations,
                AuditVerdict.of(violations),
                facts.redisArchivedAt());
    }
}
