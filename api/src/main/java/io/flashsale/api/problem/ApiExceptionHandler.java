package io.flashsale.api.problem;

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
 * Turns every failure into an RFC 9457 problem with a stable type ({@link ProblemResponses}).
 * Framework-level client errors (malformed JSON, failed validation, wrong media type) become {@code
 * invalid-request}.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> failure(Exception e) {
        return ProblemResponses.of(e);
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
