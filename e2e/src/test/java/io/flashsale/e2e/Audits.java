package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.bench.Api;
import io.flashsale.stores.audit.AuditReport;

/** The api's audit answers, read back as the report it serialized, so a test compares all of it. */
final class Audits {

    private Audits() {}

    static AuditReport report(Api.Response audit) {
        return audit.as(AuditReport.class);
    }

    /** GET /api/sales/{id}/audit answers exactly {@code expected}. */
    static void assertAudit(Api api, AuditReport expected) {
        Api.Response audit = api.audit(TestTokens.admin(), expected.saleId());
        assertThat(audit.status()).as("%s", audit.body()).isEqualTo(200);
        assertThat(report(audit)).isEqualTo(expected);
    }
}
