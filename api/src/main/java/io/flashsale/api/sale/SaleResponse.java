package io.flashsale.api.sale;

import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.sale.Price;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleChange;
import io.flashsale.stores.sale.SaleCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A sale with its stock as MySQL (the authority) and Redis (the admission gate) see it, and its
 * orders by status (MySQL).
 *
 * @param rateLimits the sale's own purchase token buckets; absent: the api's defaults
 * @param redisStock units left in Redis; null when Redis has none (lost, or archived)
 * @param redisArchivedAt when the sale's Redis side was archived (it ended and every purchase was
 *     final): MySQL alone answers for it; null while it lives in Redis
 * @param changes what operators changed on the sale (close, move, restock, withdraw), who and when,
 *     oldest first
 */
public record SaleResponse(
        String id,
        String name,
        int total,
        int available,
        Instant startsAt,
        Instant endsAt,
        Duration payTimeout,
        RateLimits rateLimits,
        Price price,
        Long redisStock,
        int pendingPayment,
        int paid,
        int expired,
        int cancelled,
        Instant redisArchivedAt,
        List<SaleChange> changes) {

    static SaleResponse of(Sale sale, Long redisStock, SaleCounts counts, List<SaleChange> changes) {
        return new SaleResponse(
                sale.id(),
                sale.name(),
                sale.total(),
                sale.available(),
                sale.startsAt(),
                sale.endsAt(),
                sale.payTimeout(),
                RateLimits.NONE.equals(sale.rateLimits()) ? null : sale.rateLimits(),
                sale.price(),
                redisStock,
                counts.pendingPayment(),
                counts.paid(),
                counts.expired(),
                counts.cancelled(),
                sale.redisArchivedAt(),
                changes);
    }
}
