package io.flashsale.bench;

import java.util.Locale;

/**
 * A sale as {@code GET /api/sales/{id}} shows it: units as MySQL and Redis count them, orders by
 * status (MySQL).
 *
 * @param redisStock null when Redis has no stock for the sale
 */
public record SaleView(
        int total, int available, Long redisStock, int pendingPayment, int paid, int expired, int cancelled) {

    public int orders() {
        return pendingPayment + paid + expired + cancelled;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%d orders (PENDING_PAYMENT %d, PAID %d, EXPIRED %d, CANCELLED %d), %d of %d units available"
                        + " (Redis %s)",
                orders(),
                pendingPayment,
                paid,
                expired,
                cancelled,
                available,
                total,
                redisStock);
    }
}
