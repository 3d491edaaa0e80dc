package io.flashsale.chaos;

/**
 * One client operation of a chaos run, as the client saw it: what was sent, when, and the answer,
 * or none ({@link Outcome#UNKNOWN}: a timeout or a broken connection, so the operation may or may
 * not have taken effect). Times are milliseconds since the run started.
 *
 * @param key the Idempotency-Key of a purchase, the payment id of a payment, empty otherwise
 * @param amountMinor the amount a payment sent, in the sale's minor currency unit; the units a
 *     restock or withdrawal asked for; 0 otherwise
 * @param status the HTTP status, 0 when unknown
 * @param problemType the ProblemDetail type's last segment (e.g. {@code sold-out}), empty if none
 * @param purchaseStatus the purchase's {@code status} in a 2xx body (RESERVED, PAID, ...), or the
 *     {@code purchaseStatus} of a refused payment's problem (EXPIRED: refunded), empty if none
 * @param answeredAtMillis -1 when unknown
 */
public record Op(
        long id,
        Kind kind,
        String saleId,
        String userId,
        String purchaseId,
        String key,
        long amountMinor,
        long invokedAtMillis,
        Outcome outcome,
        int status,
        String problemType,
        String purchaseStatus,
        long answeredAtMillis) {

    /** An operation as sent, its answer unknown yet. */
    static Op sent(
            long id, Kind kind, String saleId, String userId, String purchaseId, String key, long amount, long at) {
        return new Op(id, kind, saleId, userId, purchaseId, key, amount, at, Outcome.UNKNOWN, 0, "", "", -1);
    }

    /** The same invocation with its answer: outcome, status, problem type, purchase status, time. */
    Op answered(Outcome outcome, int status, String problemType, String purchaseStatus, long answeredAtMillis) {
        return new Op(
                id,
                kind,
                saleId,
                userId,
                purchaseId,
                key,
                amountMinor,
                invokedAtMillis,
                outcome,
                status,
                problemType,
                purchaseStatus,
                answeredAtMillis);
    }

    /** What the client did. */
    public enum Kind {
        BUY, // a buyer's first click: POST /api/sales/{sale}/purchases with a new Idempotency-Key
        BUY_RETRY, // the same click again, same Idempotency-Key (a client retry)
        SECOND_CLICK, // the same buyer again with another Idempotency-Key
        PAY, // the payment service confirms the sale's price, a new payment id
        PAY_DUPLICATE, // the same payment id confirmed again, as a provider retries
        PAY_WRONG_AMOUNT, // a payment of an amount other than the sale's price
        CANCEL, // the buyer cancels
        RESTOCK, // an operator adds units under an Idempotency-Key (now and then a repeat or another's key)
        WITHDRAW, // an operator takes unsold units off sale under an Idempotency-Key
        MOVE, // an operator moves the sale's end
        CLOSE, // an operator closes the sale: nobody is admitted after the answer
        REPAIR; // an operator repairs the sale's Redis side from MySQL and Temporal (audit/repair)

        /** A buyer's click: BUY, BUY_RETRY or SECOND_CLICK. */
        boolean buy() {
            return compareTo(SECOND_CLICK) <= 0;
        }

        /** An operator's change of a sale, not a buyer's or the payment service's operation. */
        boolean byOperator() {
            return compareTo(RESTOCK) >= 0;
        }
    }

    /** How the operation ended for the client. */
    public enum Outcome {
        OK, // a 2xx answer
        FAIL, // a definite refusal: a 4xx (the operation changed nothing, or was a repeat)
        UNKNOWN // no answer, or a 5xx: it may or may not have taken effect
    }
}
