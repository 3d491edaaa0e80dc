package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.testkit.ApiClient;
import java.time.Duration;

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

    /** GET /api/sales/{id}/audit answers exactly {@code expected}. */
    static void assertAudit(ApiClient api, AuditReport expected) {
        ApiClient.Response audit = api.audit(TestTokens.admin(), expected.saleId());
        assertThat(audit.status()).as("%s", audit.body()).isEqualTo(200);
        assertThat(report(audit)).isEqualTo(expected);
    }
}
