package io.flashsale.stores.admission;

/** What the admission script decided for one buyer; the names are the script's return codes. */
public enum AdmissionOutcome {
    /** A unit is held for the buyer and an admission entry was added to the sale's stream. */
    ADMITTED,
    /** The buyer was admitted before with the same idempotency key: the same purchase. */
    SAME_KEY,
    /** The buyer was admitted before with another idempotency key. */
    ALREADY_PURCHASED,
    SOLD_OUT,
    /** The sale has not opened yet or has closed. */
    NOT_OPEN,
    /** Redis does not know the sale. */
    UNKNOWN_SALE,
    /** The buyer's or the client address's token bucket is empty (limited_admit.lua); nothing written. */
    RATE_LIMITED
}
