package io.flashsale.stores.sale;

import java.time.Instant;

/**
 * One change of a live sale as recorded in {@code sale_changes}, with who made it and when.
 *
 * @param key RESTOCK and WITHDRAW: the request's Idempotency-Key; CLOSE: {@link #CLOSE_KEY}; MOVE: null
 * @param unitsAsked RESTOCK and WITHDRAW: the units the request named; null otherwise
 * @param units how much total and available changed: +n for a restock, minus the units taken for a
 *     withdrawal (at most the units asked, only units neither sold nor held), 0 otherwise
 * @param startsAt CLOSE and MOVE: the window's start afterwards (null: open from creation)
 * @param endsAt CLOSE and MOVE: the window's end afterwards (null: no end)
 * @param changedBy the subject of the admin token that asked for the change
 */
public record SaleChange(
        SaleChangeKind kind,
        String key,
        Integer unitsAsked,
        int units,
        Instant startsAt,
        Instant endsAt,
        String changedBy,
        Instant changedAt) {

    /**
     * The key of a sale's close: a sale closes once. Keys the system writes start with {@code #}, a
     * character no caller's Idempotency-Key may hold, so a restock or withdrawal can never take it.
     */
    public static final String CLOSE_KEY = "#close";

    /** The same change asked again: the same kind and units under the same key. */
    boolean sameRequest(SaleChangeKind otherKind, int otherUnitsAsked) {
        return kind == otherKind && unitsAsked != null && unitsAsked == otherUnitsAsked;
    }
}
