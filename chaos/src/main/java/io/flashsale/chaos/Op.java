package io.flashsale.chaos;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.flashsale.workflows.purchase.PurchaseRequest;

/**
 * One client operation as the client saw it, times in milliseconds since the run started: {@code key}
 * a buy's or change's Idempotency-Key or a payment id, {@code amountMinor} a payment's amount or a
 * change's units, {@code status} 0 and {@code answeredAtMillis} -1 while unanswered, {@code
 * purchaseStatus} a 2xx body's status or a refused payment's (EXPIRED: refunded).
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
