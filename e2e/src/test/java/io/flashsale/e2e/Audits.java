package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.testkit.ApiClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;

/** The api's audit answers, read back as the report it serialized, so a test compares all of it. */
final class Audits {

    private Audits() {}

    static AuditReport report(ApiClient.Response audit) {
        return audit.as(AuditReport.class);
    }

    /**
     * The audit comes to answer exactly {@code expected} within {@code within}: for a moment right
     * after admissions, when an admission whose workflow the api started late is still in the stream
     * until the relay drains it.
     */
    static void awaitAudit(ApiClient api, AuditReport expected, Duration within) {
        Waits.polling(Duration.ofMillis(250)).atMost(within).untilAsserted(() -> assertAudit(api, expected));
    }

    /**
     * The sale's audit once nothing is in flight and it passes, polled within {@code patience}; the
     * last one read when that never came (the caller's assertions say what it found).
     */
    static AuditReport settled(ApiClient api, String saleId, Duration patience) {
        AtomicReference<AuditReport> last = new AtomicReference<>();
        try {
            Waits.polling(Duration.ofMillis(250)).atMost(patience).until(() -> {
                ApiClient.Response audit = api.audit(TestTokens.admin(), saleId);
                if (audit.status() == 200) {
                    last.set(report(audit));
                }
                return last.get() != null
                        && last.get().admissionsInFlight() == 0
                        && last.get().result() == AuditVerdict.PASS;
            });
        } catch (ConditionTimeoutException notYet) {
            // the last audit read is the answer
        }
        assertThat(last.get()).as("an audit of sale %s", saleId).isNotNull();
        return last.get();
    }

    /** The audit passes with every one of the sale's {@code units} ordered once and awaiting payment. */
    static void assertEveryUnitPendingOnce(AuditReport audit, int units) {
        assertThat(audit.violations()).isEmpty();
        assertThat(audit.result()).isEqualTo(AuditVerdict.PASS);
        assertThat(audit.pendingPayment()).isEqualTo(units);
        assertThat(audit.mysqlAvailable()).isZero();
        assertThat(audit.redisStock()).isZero();
        assertThat(audit.heldHolds()).isEqualTo(units);
        assertThat(audit.buyers()).isEqualTo(units);
        assertThat(audit.runningWorkflows()).isEqualTo(units);
    }

    /** GET /api/sales/{id}/audit answers exactly {@code expected}. */
    static void assertAudit(ApiClient api, AuditReport expected) {
        ApiClient.Response audit = api.audit(TestTokens.admin(), expected.saleId());
        assertThat(audit.status()).as("%s", audit.body()).isEqualTo(200);
        assertThat(report(audit)).isEqualTo(expected);
    }
}
