package io.flashsale.stores.sale;

import io.flashsale.stores.admission.RateLimits;
import java.time.Duration;
import java.time.Instant;

/**
 * A flash sale as MySQL holds it.
 *
 * @param id {@code [A-Za-z0-9_]{1,40}}; it is part of the purchase id {@code purchase-{saleId}-{userId}}
 * @param available units MySQL can still turn into orders
 * @param startsAt null: open from creation
 * @param endsAt null: no end
 * @param payTimeout how long a buyer has to pay once the order exists
 * @param rateLimits the sale's own purchase token buckets; {@link RateLimits#NONE} (also for null):
 *     the api's defaults
 */
public record Sale(
        String id,
        String name,
        int total,
        int available,
        Instant startsAt,
        Instant endsAt,
        Duration payTimeout,
        RateLimits rateLimits) {

    public Sale {
        rateLimits = rateLimits == null ? RateLimits.NONE : rateLimits;
    }
}
