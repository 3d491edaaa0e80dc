package io.flashsale.stores.admission;

import java.util.List;

/**
 * The answer of the admission script.
 *
 * @param purchaseId set for ADMITTED, SAME_KEY and ALREADY_PURCHASED, else null
 * @param payTimeoutSeconds set for ADMITTED and SAME_KEY, else 0
 * @param entryId the stream entry id for ADMITTED, else null
 * @param retryAfterSeconds for RATE_LIMITED: whole seconds until the buyer may try again, else 0
 * @param hold for SAME_KEY: the purchase's hold as Redis has it (null when Redis has none), else null
 */
public record Admission(
        AdmissionOutcome outcome,
        String purchaseId,
        long payTimeoutSeconds,
        String entryId,
        long retryAfterSeconds,
        HoldState hold) {

    public Admission(AdmissionOutcome outcome, String purchaseId, long payTimeoutSeconds, String entryId) {
        this(outcome, purchaseId, payTimeoutSeconds, entryId, 0, null);
    }

    static Admission of(List<?> reply) {
        return new Admission(
                AdmissionOutcome.valueOf(text(reply.get(0))),
                emptyToNull(text(reply.get(1))),
                number(reply.get(2)),
                emptyToNull(text(reply.get(3))),
                reply.size() > 4 ? number(reply.get(4)) : 0,
                reply.size() > 5 && !text(reply.get(5)).isEmpty() ? HoldState.valueOf(text(reply.get(5))) : null);
    }

    private static long number(Object value) {
        return text(value).isEmpty() ? 0 : Long.parseLong(text(value));
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    private static String emptyToNull(String value) {
        return value.isEmpty() ? null : value;
    }
}
