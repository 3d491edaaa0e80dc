package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.TestTokens;
import io.flashsale.stores.audit.AuditReport;

/** The api's audit answers, read back as the report it serialized, so a test compares all of it. */
final class Audits {

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private Audits() {}

    static AuditReport report(ApiClient.Response audit) {
        try {
            return JSON.treeToValue(audit.body(), AuditReport.class);
        } catch (JsonProcessingException e) {
            throw new AssertionError("not an audit report: " + audit.body(), e);
        }
    }

    /** GET /api/sales/{id}/audit answers exactly {@code expected}. */
    static void assertAudit(ApiClient api, AuditReport expected) {
        ApiClient.Response audit = api.audit(TestTokens.admin(), expected.saleId());
        assertThat(audit.status()).as("%s", audit.body()).isEqualTo(200);
        assertThat(report(audit)).isEqualTo(expected);
    }
}
