package io.flashsale.api.problem;

import io.flashsale.api.AsciiIds;

/** The one rule for an {@code Idempotency-Key} header, for every write that takes one. */
public final class IdempotencyKeys {

    /** The keys a caller may send; the OpenAPI description states it too, {@link #isValid} checks it. */
    public static final String PATTERN = "[A-Za-z0-9._:-]{1,64}";

    private static final int MAX_LENGTH = 64;

    private IdempotencyKeys() {}

    /** Whether {@code key} matches {@link #PATTERN}, checked without a regular expression: it runs on every purchase. */
    public static boolean isValid(String key) {
        return key != null && AsciiIds.lettersDigitsAnd(key, MAX_LENGTH, "._:-");
    }

    /** @throws ProblemException {@link ApiProblem#INVALID_IDEMPOTENCY_KEY} unless the key is valid */
    public static String requireValid(String key) {
        if (!isValid(key)) {
            throw new ProblemException(ApiProblem.INVALID_IDEMPOTENCY_KEY, "Idempotency-Key must match " + PATTERN);
        }
        return key;
    }
}
