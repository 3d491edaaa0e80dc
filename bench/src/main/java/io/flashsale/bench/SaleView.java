package io.flashsale.bench;

import java.util.Locale;
import java.util.Objects;

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

    /**
     * At rest after {@code admitted} purchases: each has its order, none awaits payment, and Redis
     * has every unit MySQL has (the units of expired and cancelled orders are back on sale).
     */
    public boolean settled(long admitted) {
        return pendingPayment == 0 && orders() >= admitted && Objects.equals(redisStock, (long) available);
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
