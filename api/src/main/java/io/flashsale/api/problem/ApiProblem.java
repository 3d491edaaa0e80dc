package io.flashsale.api.problem;

import java.net.URI;
import org.springframework.http.HttpStatus;

/** Every business outcome the api reports as an RFC 9457 problem, with its stable type. */
public enum ApiProblem {
    SOLD_OUT(HttpStatus.CONFLICT, "sold-out", "Sold out"),
    ALREADY_PURCHASED(HttpStatus.CONFLICT, "already-purchased", "Already purchased"),
    SALE_NOT_OPEN(HttpStatus.CONFLICT, "sale-not-open", "Sale not open"),
    SALE_NOT_FOUND(HttpStatus.NOT_FOUND, "sale-not-found", "Sale not found"),
    SALE_CONFLICT(HttpStatus.CONFLICT, "sale-conflict", "Sale exists with other settings"),
    SALE_CLOSED(HttpStatus.CONFLICT, "sale-closed", "Sale closed"),
    WINDOW_IN_PAST(HttpStatus.UNPROCESSABLE_ENTITY, "window-in-past", "Sale window in the past"),
    CHANGE_CONFLICT(HttpStatus.CONFLICT, "change-conflict", "Idempotency-Key used for another change"),
    SALE_NEEDS_REPAIR(HttpStatus.CONFLICT, "sale-needs-repair", "Redis and MySQL disagree on the sale"),
    PURCHASE_NOT_FOUND(HttpStatus.NOT_FOUND, "purchase-not-found", "Purchase not found"),
    PAYMENT_REJECTED(HttpStatus.CONFLICT, "payment-rejected", "Payment rejected"),
    PAYMENT_AMOUNT_MISMATCH(
            HttpStatus.UNPROCESSABLE_ENTITY, "payment-amount-mismatch", "Payment amount differs from the price"),
    WEBHOOK_SIGNATURE_INVALID(HttpStatus.UNAUTHORIZED, "webhook-signature-invalid", "Webhook signature invalid"),
    WEBHOOK_STALE(HttpStatus.UNAUTHORIZED, "webhook-stale", "Webhook timestamp outside the tolerance"),
    WEBHOOK_REPLAYED(HttpStatus.CONFLICT, "webhook-replayed", "Webhook delivered before"),
    WEBHOOK_NOT_CONFIGURED(HttpStatus.SERVICE_UNAVAILABLE, "webhook-not-configured", "Webhook not configured"),
    CANCEL_REJECTED(HttpStatus.CONFLICT, "cancel-rejected", "Cancel rejected"),
    ADMISSIONS_IN_FLIGHT(HttpStatus.CONFLICT, "admissions-in-flight", "Admissions in flight"),
    SALE_ARCHIVED(HttpStatus.CONFLICT, "sale-archived", "Sale archived in Redis"),
    INVALID_IDEMPOTENCY_KEY(HttpStatus.BAD_REQUEST, "invalid-idempotency-key", "Invalid Idempotency-Key"),
    INVALID_REQUEST(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request"),
    BODY_TOO_LARGE(HttpStatus.PAYLOAD_TOO_LARGE, "body-too-large", "Request body too large"),
    RATE_LIMITED(HttpStatus.TOO_MANY_REQUESTS, "rate-limited", "Too many requests"),
    UNAUTHORIZED(HttpStatus.UNAUTHORIZED, "unauthorized", "Unauthorized"),
    FORBIDDEN(HttpStatus.FORBIDDEN, "forbidden", "Forbidden"),
    UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "unavailable", "Temporarily unavailable"),
    INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "Internal error");

    public static final String TYPE_BASE = "https://flashsale.dev/problems/";

    private final HttpStatus status;
    private final String slug;
    private final String title;

    ApiProblem(HttpStatus status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    public URI type() {
        return URI.create(TYPE_BASE + slug);
    }

    /** The type's last segment, e.g. {@code sold-out}: what clients and metrics name it by. */
    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }
}
