package io.flashsale.api.security;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import java.util.regex.Pattern;
import org.springframework.security.oauth2.jwt.Jwt;

/** The authenticated user. The id comes from the token's subject only, never from a request body. */
public record Buyer(String userId) {

    /** User ids end up in Redis hash fields and workflow ids: keep them to a safe alphabet. */
    private static final Pattern USER_ID = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

    public static Buyer of(Jwt token) {
        String subject = token.getSubject();
        if (subject == null || !USER_ID.matcher(subject).matches()) {
            throw new ProblemException(ApiProblem.UNAUTHORIZED, "token subject must match " + USER_ID.pattern());
        }
        return new Buyer(subject);
    }
}
