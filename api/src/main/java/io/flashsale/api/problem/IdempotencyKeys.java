package io.flashsale.api.problem;

import java.util.regex.Pattern;

/** The one rule for an {@code Idempotency-Key} header, for every write that takes one. */
public final class IdempotencyKeys {

    /** The keys a caller may send; the OpenAPI description states it too. */
    public static final String PATTERN = "[A-Za-z0-9._:-]{1,64}";

    private static final Pattern VALID = Pattern.compile(PATTERN);

    private IdempotencyKeys() {}

    public static boolean isValid(String key) {
        return key != null && VALID.matcher(key).matches();
    }

    /** @throws ProblemException {@link ApiProblem#INVALID_IDEMPOTENCY_KEY} unless the key is valid */
    public static String requireValid(String key) {
        if (!isValid(key)) {
            throw new ProblemException(
                    ApiProblem.INVALID_IDEMPOTENCY_KEY, "Idempotency-Key must match " + VALID.pattern());
        }
        return key;
    }
}
