package io.flashsale.activities.admission;

import java.util.List;

/**
 * The answer of the admission script.
 *
 * @param purchaseId set for ADMITTED, SAME_KEY and ALREADY_PURCHASED, else null
 * @param payTimeoutSeconds set for ADMITTED and SAME_KEY, else 0
 * @param entryId the stream entry id for ADMITTED, else null
 */
public record Admission(AdmissionOutcome outcome, String purchaseId, long payTimeoutSeconds, String entryId) {

    static Admission of(List<?> reply) {
        return new Admission(
                AdmissionOutcome.valueOf(text(reply.get(0))),
                emptyToNull(text(reply.get(1))),
                text(reply.get(2)).isEmpty() ? 0 : Long.parseLong(text(reply.get(2))),
                emptyToNull(text(reply.get(3))));
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    private static String emptyToNull(String value) {
        return value.isEmpty() ? null : value;
    }
}
