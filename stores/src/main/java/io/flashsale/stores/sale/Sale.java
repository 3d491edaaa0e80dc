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
 * @param price what one unit costs; payments must name exactly this
 * @param redisArchivedAt when the sale's Redis side was archived ({@link SaleArchive}); null: it lives
 *     in Redis
 */
public record Sale(
        String id,
        String name,
        int total,
        int available,
        Instant startsAt,
        Instant endsAt,
        Duration payTimeout,
        RateLimits rateLimits,
        Price price,
        Instant redisArchivedAt) {

    public Sale {
        rateLimits = rateLimits == null ? RateLimits.NONE : rateLimits;
        price = price == null ? Price.UNSET : price;
    }

    /** A sale whose Redis side lives (not archived). */
    public Sale(
            String id,
            String name,
            int total,
            int available,
            Instant startsAt,
            Instant endsAt,
            Duration payTimeout,
            RateLimits rateLimits,
            Price price) {
        this(id, name, total, available, startsAt, endsAt, payTimeout, rateLimits, price, null);
    }

    /** The sale ended and every purchase was final; its Redis keys are gone, MySQL answers alone. */
    public boolean redisArchived() {
        return redisArchivedAt != null;
    }
}
