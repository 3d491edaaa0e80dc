package io.flashsale.api.security;

import io.flashsale.api.AsciiIds;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import org.springframework.security.oauth2.jwt.Jwt;

/** The authenticated user. The id comes from the token's subject only, never from a request body. */
public record Buyer(String userId) {

    /** User ids end up in Redis hash fields and workflow ids: keep them to a safe alphabet. */
    public static final String PATTERN = "[A-Za-z0-9._@-]{1,64}";

    private static final int MAX_LENGTH = 64;

    /** The buyer of {@code token}, whose subject must match {@link #PATTERN}: checked on every purchase. */
    public static Buyer of(Jwt token) {
        String subject = token.getSubject();
        if (subject == null || !AsciiIds.lettersDigitsAnd(subject, MAX_LENGTH, "._@-")) {
            throw new ProblemException(ApiProblem.UNAUTHORIZED, "token subject must match " + PATTERN);
        }
        return new Buyer(subject);
    }
}
