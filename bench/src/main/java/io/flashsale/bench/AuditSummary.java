package io.flashsale.bench;

import io.flashsale.stores.audit.AuditReport;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;

/** What a run reports of one sale, from the api's invariant audit (I1-I5 of {@code docs/architecture.md}). */
public record AuditSummary(AuditReport report) {

    public static AuditSummary read(ApiClient api, Tokens tokens, String saleId) {
        return new AuditSummary(api.audit(tokens.admin(), saleId)
                .expect("auditing " + saleId, 200)
                .as(AuditReport.class));
    }

    /** Units sold beyond the total: orders holding units above it, or a negative count. */
    public int oversold() {
        return Math.max(0, report.pendingPayment() + report.paid() - report.total())
                + Math.max(0, -report.mysqlAvailable());
    }

    /** I2 broken: a user with a second order, or an order under another sale's or user's purchase id. */
    public long duplicateOrders() {
        return violations("I2");
    }

    /** I1 holds: available + PENDING_PAYMENT + PAID = total, available >= 0. */
    public boolean mysqlBalanced() {
        return violations("I1") == 0;
    }

    /** I3 holds: Redis stock + HELD holds = total (nothing in flight), every sold unit HELD. */
    public boolean redisBalanced() {
        return violations("I3") == 0;
    }

    private long violations(String invariant) {
        return report.violations().stream()
                .filter(v -> v.invariant().equals(invariant))
                .count();
    }
}
