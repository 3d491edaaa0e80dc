package io.flashsale.api.problem;

import io.lettuce.core.RedisConnectionException;
import io.temporal.client.WorkflowServiceException;
import jakarta.validation.ConstraintViolationException;
import java.io.IOException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns every failure into an RFC 9457 problem with a stable type. Framework-level client errors
 * (malformed JSON, failed validation, wrong media type) become {@code invalid-request}.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(ProblemException.class)
    ResponseEntity<ProblemDetail> problem(ProblemException e) {
        return ResponseEntity.status(e.problem().status())
                .body(Problems.of(e.problem(), e.getMessage(), e.properties()));
    }

    /** 429 with Retry-After (whole seconds until the emptied token bucket holds a token again). */
    @ExceptionHandler(RateLimitedException.class)
    ResponseEntity<ProblemDetail> rateLimited(RateLimitedException e) {
        return ResponseEntity.status(e.problem().status())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfterSeconds()))
                .body(Problems.of(e.problem(), e.getMessage(), Map.of("retryAfterSeconds", e.retryAfterSeconds())));
    }

    /**
     * Temporal, Redis or MySQL unreachable, or a Redis command unanswered within its timeout (a Redis
     * Cluster master failing over): the request changed nothing the system cannot finish.
     */
    @ExceptionHandler({
        WorkflowServiceException.class,
        DataAccessResourceFailureException.class,
        QueryTimeoutException.class
    })
    ResponseEntity<ProblemDetail> unavailable(RuntimeException e) {
        return ResponseEntity.status(ApiProblem.UNAVAILABLE.status())
                .header(HttpHeaders.RETRY_AFTER, "1")
                .body(Problems.of(ApiProblem.UNAVAILABLE, "a backing service is unavailable, retry shortly"));
    }

    /**
     * A Redis connection cut while a command was under way (a node killed, a failover starting):
     * Lettuce reports the reset as a plain Redis exception, and it is as temporary as an
     * unreachable Redis. Any other Redis error stays unexpected.
     */
    @ExceptionHandler(RedisSystemException.class)
    ResponseEntity<ProblemDetail> redisFailure(RedisSystemException e) {
        return isConnectionLost(e) ? unavailable(e) : unexpected(e);
    }

    private static boolean isConnectionLost(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException || cause instanceof RedisConnectionException) {
                return true;
            }
        }
        return false;
    }

    /** Anything unforeseen is still a problem body, without internals. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        log.error("unexpected failure", e);
        return ResponseEntity.internalServerError()
                .body(Problems.of(ApiProblem.INTERNAL, "unexpected failure; it has been logged"));
    }

    @ExceptionHandler(ConstraintViolationException.class)
    ResponseEntity<ProblemDetail> constraintViolation(ConstraintViolationException e) {
        return ResponseEntity.badRequest().body(Problems.of(ApiProblem.INVALID_REQUEST, e.getMessage()));
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(
            Exception ex, Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        if (statusCode.is4xxClientError()) {
            ApiProblem problem = ex instanceof MissingRequestHeaderException missing
                            && "Idempotency-Key".equalsIgnoreCase(missing.getHeaderName())
                    ? ApiProblem.INVALID_IDEMPOTENCY_KEY
                    : ApiProblem.INVALID_REQUEST;
            ProblemDetail detail = Problems.of(problem, clientMessage(ex, body));
            detail.setStatus(statusCode.value());
            return ResponseEntity.status(statusCode).headers(headers).body(detail);
        }
        return super.handleExceptionInternal(ex, body, headers, statusCode, request);
    }

    private static String clientMessage(Exception ex, Object body) {
        if (body instanceof ProblemDetail detail && detail.getDetail() != null) {
            return detail.getDetail();
        }
        return ex.getMessage();
    }
}
