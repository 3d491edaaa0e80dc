package io.flashsale.stores.sale;

import io.flashsale.stores.admission.RateLimits;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The {@code sales} table, plus order counts per sale for the audit. */
public class SaleRepository {

    private static final String SELECT_SALE =
            """
            SELECT id, name, total, available, pay_timeout_seconds,
                   CAST(UNIX_TIMESTAMP(starts_at) * 1000 AS SIGNED) AS starts_at_millis,
                   CAST(UNIX_TIMESTAMP(ends_at) * 1000 AS SIGNED) AS ends_at_millis,
                   user_bucket_capacity, user_bucket_refill,
                   address_bucket_capacity, address_bucket_refill, price_minor, currency,
                   CAST(UNIX_TIMESTAMP(redis_archived_at) * 1000 AS SIGNED) AS redis_archived_at_millis
            FROM sales WHERE id = ?
            """;

    private final JdbcClient jdbc;

    public SaleRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The sale of exactly this id: a row whose id differs only in case is another sale. */
    public Optional<Sale> find(String id) {
        return select(SELECT_SALE, id);
    }

    /**
     * {@link #find}, and the sale's row stays locked until the caller's transaction ends: the changes
     * of one sale (close, move, restock, withdraw) run one after the other.
     */
    public Optional<Sale> findForUpdate(String id) {
        return select(SELECT_SALE + " FOR UPDATE", id);
    }

    private Optional<Sale> select(String sql, String id) {
        return jdbc.sql(sql)
                .param(id)
                .query(SaleRow.class)
                .optional()
                .filter(row -> row.id().equals(id))
                .map(SaleRow::toSale);
    }

    /** Idempotent by the sale id (primary key): false when a sale with this id exists. */
    public boolean insertIfAbsent(Sale sale) {
        try {
            jdbc.sql(
                            """
                            INSERT INTO sales (id, name, total, available, starts_at, ends_at, pay_timeout_seconds,
                                               user_bucket_capacity, user_bucket_refill,
                                               address_bucket_capacity, address_bucket_refill, price_minor, currency)
                            VALUES (?, ?, ?, ?, FROM_UNIXTIME(? / 1000), FROM_UNIXTIME(? / 1000), ?, ?, ?, ?, ?, ?, ?)
                            """)
                    .params(
                            sale.id(),
                            sale.name(),
                            sale.total(),
                            sale.available(),
                            millis(sale.startsAt()),
                            millis(sale.endsAt()),
                            sale.payTimeout().toSeconds(),
                            capacity(sale.rateLimits().perUser()),
                            refill(sale.rateLimits().perUser()),
                            capacity(sale.rateLimits().perAddress()),
                            refill(sale.rateLimits().perAddress()),
                            sale.price().amountMinor(),
                            sale.price().currency())
                    .update();
            return true;
        } catch (DuplicateKeyException alreadyThere) {
            return false;
        }
    }

    /**
     * Sales still living in Redis that ended before {@code endedBefore}, oldest end first, at most
     * {@code limit} (index {@code sales_redis_live}).
     */
    public List<String> endedInRedis(Instant endedBefore, int limit) {
        return jdbc.sql(
                        """
                        SELECT id FROM sales
                        WHERE redis_archived_at IS NULL AND ends_at < FROM_UNIXTIME(? / 1000)
                        ORDER BY ends_at, id LIMIT ?
                        """)
                .params(endedBefore.toEpochMilli(), limit)
                .query(String.class)
                .list();
    }

    /**
     * Records that the sale's Redis side is archived. Idempotent by sale id: only the first call
     * sets the time ({@code redis_archived_at IS NULL}).
     *
     * @return true when this call recorded it
     */
    public boolean markRedisArchived(String saleId) {
        return jdbc.sql("UPDATE sales SET redis_archived_at = NOW(3) WHERE id = ? AND redis_archived_at IS NULL")
                        .param(saleId)
                        .update()
                == 1;
    }

    /** The purchase ids of the sale's PAID orders. */
    public List<String> paidPurchaseIds(String saleId) {
        return jdbc.sql("SELECT purchase_id FROM orders WHERE sale_id = ? AND status = 'PAID' ORDER BY purchase_id")
                .param(saleId)
                .query(String.class)
                .list();
    }

    public SaleCounts counts(String saleId) {
        Map<String, Integer> byStatus = jdbc
                .sql(
                        """
                        SELECT status, COUNT(*) AS orders FROM orders WHERE sale_id = ? GROUP BY status
                        """)
                .param(saleId)
                .query(StatusCount.class)
                .list()
                .stream()
                .collect(Collectors.toMap(StatusCount::status, StatusCount::orders));
        return new SaleCounts(
                byStatus.getOrDefault("PENDING_PAYMENT", 0),
                byStatus.getOrDefault("PAID", 0),
                byStatus.getOrDefault("EXPIRED", 0),
                byStatus.getOrDefault("CANCELLED", 0));
    }

    /**
     * Times travel as epoch millis (FROM_UNIXTIME / UNIX_TIMESTAMP): exact to the millisecond on
     * MySQL and MariaDB alike, whatever the JVM and session time zones.
     */
    private static Long millis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    private static Integer capacity(RateLimits.Bucket bucket) {
        return bucket == null ? null : bucket.capacity();
    }

    private static Double refill(RateLimits.Bucket bucket) {
        return bucket == null ? null : bucket.refillPerSecond();
    }

    record SaleRow(
            String id,
            String name,
            int total,
            int available,
            long payTimeoutSeconds,
            Long startsAtMillis,
            Long endsAtMillis,
            Integer userBucketCapacity,
            Double userBucketRefill,
            Integer addressBucketCapacity,
            Double addressBucketRefill,
            long priceMinor,
            String currency,
            Long redisArchivedAtMillis) {

        Sale toSale() {
            return new Sale(
                    id,
                    name,
                    total,
                    available,
                    instant(startsAtMillis),
                    instant(endsAtMillis),
                    Duration.ofSeconds(payTimeoutSeconds),
                    new RateLimits(
                            bucket(userBucketCapacity, userBucketRefill),
                            bucket(addressBucketCapacity, addressBucketRefill)),
                    new Price(priceMinor, currency),
                    instant(redisArchivedAtMillis));
        }

        private static Instant instant(Long millis) {
            return millis == null ? null : Instant.ofEpochMilli(millis);
        }

        private static RateLimits.Bucket bucket(Integer capacity, Double refill) {
            return capacity == null || refill == null ? null : new RateLimits.Bucket(capacity, refill);
        }
    }

    record StatusCount(String status, int orders) {}
}
