package io.flashsale.chaos;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.flashsale.workflows.purchase.PurchaseRequest;

/**
 * One client operation of a chaos run as the client saw it: what was sent, when, and the answer
 * ({@code status} 0 when none came). Times are milliseconds since the run started.
 *
 * @param key the Idempotency-Key of a buy or a change, the payment id of a payment, empty otherwise
 * @param amountMinor a payment's amount in minor units, a change's units, 0 otherwise
 * @param problemType the ProblemDetail type's last segment (e.g. {@code sold-out}), empty if none
 * @param purchaseStatus a 2xx body's {@code status}, or a refused payment's {@code purchaseStatus}
 *     (EXPIRED: refunded), empty if none
 * @param answeredAtMillis -1 when unanswered
 */
public record Op(
        long id,
        Kind kind,
        String saleId,
        String userId,
        String key,
        long amountMinor,
        long invokedAtMillis,
        int status,
        String problemType,
        String purchaseStatus,
        long answeredAtMillis) {

    /** The purchase of the operation's buyer (the api derives it from sale and user). */
    @JsonProperty
    public String purchaseId() {
        return PurchaseRequest.purchaseId(saleId, userId);
    }

    /** How the operation ended for the client, by its status. */
    @JsonProperty
    public Outcome outcome() {
        return status == 0 || status >= 500 ? Outcome.UNKNOWN : status >= 400 ? Outcome.FAIL : Outcome.OK;
    }

    /** What the client did. */
    public enum Kind {
        BUY, // a buyer's first click, a new Idempotency-Key
        BUY_RETRY, // the same click again, same key (a client retry)
        SECOND_CLICK, // the same buyer again with another key
        PAY, // the payment service confirms the sale's price under a new payment id
        PAY_DUPLICATE, // the same payment id again, as a provider retries
        PAY_WRONG_AMOUNT, // a payment of an amount other than the price
        CANCEL, // the buyer cancels
        RESTOCK, // an operator adds units under an Idempotency-Key
        WITHDRAW, // an operator takes unsold units off sale under an Idempotency-Key
        MOVE, // an operator moves the sale's end
        CLOSE, // an operator closes the sale: nobody is admitted after the answer
        REPAIR; // an operator repairs the sale's Redis side (audit/repair)

        boolean buy() {
            return compareTo(SECOND_CLICK) <= 0;
        }

        boolean byOperator() {
            return compareTo(RESTOCK) >= 0;
        }
    }

    /** OK a 2xx; FAIL a 4xx (changed nothing, or was a repeat); UNKNOWN none or a 5xx (may have taken effect). */
    public enum Outcome {
        OK,
        FAIL,
        UNKNOWN
    }
}
