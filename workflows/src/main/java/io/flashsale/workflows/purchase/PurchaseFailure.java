package io.flashsale.workflows.purchase;

import io.temporal.failure.ApplicationFailure;
import java.util.Optional;

/**
 * Business outcomes that end a step for good. They travel as non-retryable {@link
 * ApplicationFailure}s whose type is the enum name; everything else is transient and retried.
 */
public enum PurchaseFailure {
    /** MySQL has no unit left for the sale. */
    SOLD_OUT,
    /** MySQL already holds an order of this user for this sale. */
    ALREADY_ORDERED,
    /**
     * The purchase's order has ended already (PAID, EXPIRED, CANCELLED): a new run of the purchase
     * after its workflow was removed (retention) must not adopt it.
     */
    ORDER_ENDED,
    /**
     * MySQL refused the order's write for good (a constraint other than the expected unique keys,
     * data too long): retrying the same statement would fail the same way.
     */
    ORDER_INVALID,
    /** The payment id is already used by another order. */
    PAYMENT_ID_IN_USE,
    /** Payment refused: the purchase is not awaiting payment (deadline passed, cancelled, ...). */
    PAYMENT_REJECTED,
    /** Cancel refused: the purchase is paid or already ended otherwise. */
    CANCEL_REJECTED;

    public ApplicationFailure failure(String message) {
        return ApplicationFailure.newNonRetryableFailure(message, name());
    }

    /**
     * What an Update validator throws to refuse: a plain exception whose cause is {@link #failure}.
     * The SDK (1.37) sends an {@link ApplicationFailure} thrown from a validator with its own class
     * name as type (sdk-java#2875), so the client could not tell the refusal; a plain exception
     * reaches it with this failure, type intact, as its cause ({@link #matches} finds it).
     */
    public RuntimeException refusal(String message) {
        return new Refusal(message, failure(message));
    }

    public boolean matches(Throwable failure) {
        return find(failure).isPresent();
    }

    /** The failure of this type in {@code failure}'s cause chain (a refusal's message is in it). */
    public Optional<ApplicationFailure> find(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ApplicationFailure app && name().equals(app.getType())) {
                return Optional.of(app);
            }
        }
        return Optional.empty();
    }

    /** A validator's refusal; the {@link ApplicationFailure} of its type is the cause. */
    static final class Refusal extends RuntimeException {

        Refusal(String message, ApplicationFailure failure) {
            super(message, failure);
        }
    }
}
