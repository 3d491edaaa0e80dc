package io.flashsale.e2e;

import com.fasterxml.jackson.databind.JsonNode;

/** The audit report's numbers as one value, so a test asserts all of them at once. */
final class Audits {

    private Audits() {}

    record Counts(
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
            long runningWorkflows) {}

    static Counts counts(ApiClient.Response audit) {
        JsonNode b = audit.body();
        return new Counts(
                b.path("total").asInt(),
                b.path("mysqlAvailable").asInt(),
                b.path("pendingPayment").asInt(),
                b.path("paid").asInt(),
                b.path("expired").asInt(),
                b.path("cancelled").asInt(),
                b.hasNonNull("redisStock") ? b.path("redisStock").asLong() : null,
                b.path("heldHolds").asLong(),
                b.path("releasedHolds").asLong(),
                b.path("buyers").asLong(),
                b.path("admissionsInFlight").asLong(),
                b.path("runningWorkflows").asLong());
    }
}
