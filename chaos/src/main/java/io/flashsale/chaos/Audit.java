package io.flashsale.chaos;

import io.flashsale.stores.audit.AuditReport;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;

/** The api's audit of one sale, or null when it could not answer (an api or a store down). */
final class Audit {

    private Audit() {}

    static AuditReport of(ApiClient api, Tokens tokens, String sale) {
        try {
            ApiClient.Response audit = api.audit(tokens.admin(), sale);
            return audit.status() == 200 ? audit.as(AuditReport.class) : null;
        } catch (RuntimeException noAnswer) {
            return null;
        }
    }
}
