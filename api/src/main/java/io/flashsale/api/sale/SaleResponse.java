package io.flashsale.api.sale;

import io.flashsale.activities.sale.Sale;
import io.flashsale.activities.sale.SaleCounts;
import java.time.Duration;
import java.time.Instant;

/** A sale with its stock as MySQL (the authority) and Redis (the admission gate) see it. */
public record SaleResponse(
        String id,
        String name,
        int total,
        int available,
        Instant startsAt,
        Instant endsAt,
        Duration payTimeout,
        Long redisStock,
        int pendingPayment,
        int paid) {

    static SaleResponse of(Sale sale, Long redisStock, SaleCounts counts) {
        return new SaleResponse(
                sale.id(),
                sale.name(),
                sale.total(),
                sale.available(),
                sale.startsAt(),
                sale.endsAt(),
                sale.payTimeout(),
                redisStock,
                counts.pendingPayment(),
                counts.paid());
    }
}
