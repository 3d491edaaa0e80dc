package io.flashsale.api.problem;

import io.lettuce.core.RedisConnectionException;
import io.temporal.client.WorkflowServiceException;
import jakarta.validation.ConstraintViolationException;
import java.io.IOException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * The one mapping from a failure to its answer: an RFC 9457 problem with a stable type, its status
 * and headers. The exception handler answers MVC's requests with it and the purchase endpoint its
 * own ({@link ProblemWriter}).
 */
public final class ProblemResponses {

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);

    private ProblemResponses() {}

    public static ResponseEntity<ProblemDetail> of(Throwable failure) {
        if (failure instanceof RateLimitedException limited) {
            // 429 with Retry-After: whole seconds until the emptied token bucket holds a token again
            return ResponseEntity.status(limited.problem().status())
                    .header(HttpHeaders.RETRY_AFTER, Long.toString(limited.retryAfterSeconds()))
                    .body(Problems.of(
                            limited.problem(),
                            limited.getMessage(),
                            Map.of("retryAfterSeconds", limited.retryAfterSeconds())));
        }
        if (failure instanceof ProblemException problem) {
            return ResponseEntity.status(problem.problem().status())
                    .body(Problems.of(problem.problem(), problem.getMessage(), problem.properties()));
        }
        if (failure instanceof ConstraintViolationException invalid) {
            return ResponseEntity.badRequest().body(Problems.of(ApiProblem.INVALID_REQUEST, invalid.getMessage()));
        }
        if (isUnavailable(failure)) {
            return ResponseEntity.status(ApiProblem.UNAVAILABLE.status())
                    .header(HttpHeaders.RETRY_AFTER, "1")
                    .body(Problems.of(ApiProblem.UNAVAILABLE, "a backing service is unavailable, retry shortly"));
        }
        log.error("unexpected failure", failure);
        return ResponseEntity.internalServerError()
                .body(Problems.of(ApiProblem.INTERNAL, "unexpected failure; it has been logged"));
    }

    /**
     * Temporal, Redis, MySQL or the token issuer's keys unreachable (no connection to be had, one lost mid-statement: MySQL
     * restarting), a command unanswered within its timeout (a Redis Cluster master failing over), or
     * a Redis connection cut while a command was under way (Lettuce reports the reset as a plain
     * Redis exception): the request changed nothing the system cannot finish. Any other Redis error
     * stays unexpected.
     */
    private static boolean isUnavailable(Throwable failure) {
        return failure instanceof WorkflowServiceException
                || failure instanceof DataAccessResourceFailureException
                || failure instanceof TransientDataAccessException
                || failure instanceof RecoverableDataAccessException
                || failure instanceof CannotCreateTransactionException
                // a commit or rollback whose connection died: the outcome is unknown, every write idempotent
                || failure instanceof TransactionSystemException
                || (failure instanceof RedisSystemException && isConnectionLost(failure))
                // a token that could not be checked at all (a refused one is a BadJwtException: 401)
                || (failure instanceof JwtException && !(failure instanceof BadJwtException));
    }

    private static boolean isConnectionLost(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException || cause instanceof RedisConnectionException) {
                return true;
            }
        }
        return false;
    }
}
