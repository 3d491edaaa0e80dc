package io.flashsale.api.testing;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Reads MySQL and Redis behind the api's back, to prove what a request wrote, or that it wrote nothing. */
public final class StoreProbe {

    private final JdbcClient jdbc;
    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;

    StoreProbe(JdbcClient jdbc, StringRedisTemplate redis, RedisKeyProperties keys) {
        this.jdbc = jdbc;
        this.redis = redis;
        this.keys = keys;
    }

    /**
     * Everything a request could change in the business state: row counts of sales and orders, the
     * sale's row and orders, every Redis key of this test context but the rate-limit buckets (every
     * purchase request that passes the limiter spends a token, sold out or not; see {@link
     * #buckets}), and the sale's stock, buyers, holds and stream length.
     */
    public StoreSnapshot snapshot(String saleId) {
        SaleKeys sale = keys.sale(saleId);
        return new StoreSnapshot(
                count("SELECT COUNT(*) FROM sales"),
                count("SELECT COUNT(*) FROM orders"),
                available(saleId),
                orders(saleId),
                redisKeys(),
                redis.opsForValue().get(sale.stock()),
                hash(sale.buyers()),
                hash(sale.holds()),
                redis.opsForStream().size(sale.admissions()));
    }

    /** Orders of a sale as {@code purchaseId status paymentId}, sorted. */
    public List<String> orders(String saleId) {
        return jdbc.sql(
                        """
                        SELECT CONCAT_WS(' ', purchase_id, status, COALESCE(payment_id, '-')) FROM orders
                        WHERE sale_id = ? ORDER BY purchase_id
                        """)
                .param(saleId)
                .query(String.class)
                .list();
    }

    public Integer available(String saleId) {
        return jdbc.sql("SELECT available FROM sales WHERE id = ?")
                .param(saleId)
                .query(Integer.class)
                .optional()
                .orElse(null);
    }

    public Long redisStock(String saleId) {
        String stock = redis.opsForValue().get(keys.sale(saleId).stock());
        return stock == null ? null : Long.valueOf(stock);
    }

    public SortedMap<String, String> holds(String saleId) {
        return hash(keys.sale(saleId).holds());
    }

    public long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }

    /** The sale's token buckets (rate_limit.lua), key to {@code tokens at}; a refused request changes none. */
    public SortedMap<String, String> buckets(String saleId) {
        SortedMap<String, String> buckets = new TreeMap<>();
        for (String key : redis.keys(keys.sale(saleId).rateLimits() + ":*")) {
            SortedMap<String, String> bucket = hash(key);
            buckets.put(key, bucket.get("tokens") + " " + bucket.get("at"));
        }
        return buckets;
    }

    /**
     * Someone ends a PENDING_PAYMENT order in MySQL (unit back) behind its workflow's back, as the
     * workflow of another purchase did when ids compared case-insensitively.
     */
    public void cancelOrderBehindItsWorkflow(String saleId, String purchaseId) {
        jdbc.sql("UPDATE orders SET status = 'CANCELLED' WHERE purchase_id = ?")
                .param(purchaseId)
                .update();
        jdbc.sql("UPDATE sales SET available = available + 1 WHERE id = ?")
                .param(saleId)
                .update();
    }

    /** Redis loses the sale: every key of it goes (meta, stock, holds, buyers, stream, buckets). */
    public long loseSale(String saleId) {
        Long deleted = redis.delete(redis.keys(keys.keyPrefix() + ":{sale:" + saleId + "}:*"));
        return deleted == null ? 0 : deleted;
    }

    /** Every rate-limit bucket of this test context, of any sale (also of sales that do not exist). */
    public SortedSet<String> allBuckets() {
        return new TreeSet<>(redis.keys(keys.keyPrefix() + ":{sale:*}:rl:*"));
    }

    private SortedSet<String> redisKeys() {
        SortedSet<String> all = new TreeSet<>(redis.keys(keys.keyPrefix() + "*"));
        all.removeIf(key -> key.contains("}:rl:"));
        return all;
    }

    private SortedMap<String, String> hash(String key) {
        SortedMap<String, String> entries = new TreeMap<>();
        redis.<String, String>opsForHash().entries(key).forEach(entries::put);
        return entries;
    }

    /** What {@link #snapshot} saw; compare two with {@code isEqualTo}. */
    public record StoreSnapshot(
            long sales,
            long orders,
            Integer saleAvailable,
            List<String> saleOrders,
            SortedSet<String> redisKeys,
            String stock,
            Map<String, String> buyers,
            Map<String, String> holds,
            Long admissions) {}
}
