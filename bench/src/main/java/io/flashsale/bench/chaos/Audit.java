package io.flashsale.bench.chaos;

import io.flashsale.bench.Api;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.testkit.Tokens;

/** The api's audit of one sale, or null when it could not answer (an api or a store down). */
final class Audit {

    private Audit() {}

    static AuditReport of(Api api, Tokens tokens, String sale) {
        try {
            Api.Response audit = api.audit(tokens.admin(), sale);
            return audit.status() == 200 ? audit.as(AuditReport.class) : null;
        } catch (RuntimeException noAnswer) {
            return null;
        }
    }
}
