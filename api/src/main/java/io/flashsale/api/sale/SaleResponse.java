package io.flashsale.api.sale;

import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleCounts;
import java.time.Duration;
import java.time.Instant;

/**
 * A sale with its stock as MySQL (the authority) and Redis (the admission gate) see it, and its
 * orders by status (MySQL).
 *
 * @param rateLimits the sale's own purchase token buckets; absent: the api's defaults
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
        Long redisStock,
        int pendingPayment,
        int paid,
        int expired,
        int cancelled) {

    static SaleResponse of(Sale sale, Long redisStock, SaleCounts counts) {
        return new SaleResponse(
                sale.id(),
                sale.name(),
                sale.total(),
                sale.available(),
                sale.startsAt(),
                sale.endsAt(),
                sale.payTimeout(),
                RateLimits.NONE.equals(sale.rateLimits()) ? null : sale.rateLimits(),
                redisStock,
                counts.pendingPayment(),
                counts.paid(),
                counts.expired(),
                counts.cancelled());
    }
}
