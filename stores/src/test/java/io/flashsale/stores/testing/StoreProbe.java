package io.flashsale.stores.testing;

import io.flashsale.stores.LuaScripts;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.AdmissionStream;
import io.flashsale.stores.admission.HoldState;
import io.flashsale.stores.admission.RelaySales;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.stream.StreamInfo.XInfoConsumer;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Reads MySQL and Redis behind the processes' backs, to prove what a request wrote, or that it wrote
 * nothing, and plays the faults a test needs (a lost sale, an order ended behind its workflow, a
 * hidden sale). Key names come from {@link RedisKeyProperties}; the admission gate and stream are the
 * classes the api and the relay use, their scripts loaded by {@link LuaScripts}. Only ever touches
 * keys under the configured prefix (never FLUSHDB on a shared Redis).
 */
public final class StoreProbe {

    private final JdbcClient jdbc;
    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;

    public StoreProbe(JdbcClient jdbc, StringRedisTemplate redis, RedisKeyProperties keys) {
        this.jdbc = jdbc;
        this.redis = redis;
        this.keys = keys;
    }

    /**
     * Everything a request could change in the business state: the row count of sales, the sale's
     * row and orders, every Redis key under the prefix but the rate-limit buckets (every
     * purchase request that passes the limiter spends a token, sold out or not; see {@link
     * #buckets}), and the sale's stock, buyers, holds and stream length. Not the count of every
     * order: other tests' purchases write theirs in the background (a 202 does not wait for the
     * workflow), and a request can only reach orders of its own sale, and only through a workflow.
     */
    public StoreSnapshot snapshot(String saleId) {
        SaleKeys sale = keys.sale(saleId);
        return new StoreSnapshot(
                count("SELECT COUNT(*) FROM sales"),
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

    public long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }

    public Long redisStock(String saleId) {
        String stock = redis.opsForValue().get(keys.sale(saleId).stock());
        return stock == null ? null : Long.valueOf(stock);
    }

    public SortedMap<String, String> holds(String saleId) {
        return hash(keys.sale(saleId).holds());
    }

    /** Number of purchases holding a unit in Redis (HELD holds). */
    public long heldCount(String saleId) {
        return holds(saleId).values().stream()
                .filter(HoldState.HELD.name()::equals)
                .count();
    }

    /** Length of the sale's admission stream: admissions whose workflow start nobody confirmed yet. */
    public long admissions(String saleId) {
        Long length = redis.opsForStream().size(keys.sale(saleId).admissions());
        return length == null ? 0 : length;
    }

    /** The sale's token buckets (rate_limit.lua), key to {@code tokens at}; a refused request changes none. */
    public SortedMap<String, String> buckets(String saleId) {
        SortedMap<String, String> buckets = new TreeMap<>();
        for (String key : keys(keys.sale(saleId).rateLimits() + ":*")) {
            SortedMap<String, String> bucket = hash(key);
            buckets.put(key, bucket.get("tokens") + " " + bucket.get("at"));
        }
        return buckets;
    }

    /** The name of the sale's token bucket of one client address. */
    public String addressBucket(String saleId, String address) {
        return keys.sale(saleId).addressBucket(address);
    }

    /** Every rate-limit bucket under the prefix, of any sale (also of sales that do not exist). */
    public SortedSet<String> allBuckets() {
        return new TreeSet<>(keys(anySalesBuckets()));
    }

    /**
     * The admission Lua the api runs, without the workflow start that follows it there; admit
     * through {@link TestAdmissions} to pass no rate limit.
     */
    public AdmissionGate gate() {
        return new AdmissionGate(redis, keys, LuaScripts.limitedAdmit());
    }

    /** The relay's view of the streams, to play a relay consumer that reads and dies. */
    public AdmissionStream stream() {
        return new AdmissionStream(
                redis,
                keys,
                LuaScripts.load("claim", List.class),
                LuaScripts.load("ack_delete", Long.class),
                LuaScripts.load("backlog", List.class));
    }

    /** Hides the sale (one without end) from every relay (they walk the relay's sales) or shows it again. */
    public void relayed(String saleId, boolean visible) {
        if (visible) {
            new RelaySales(redis, keys).add(saleId, null);
        } else {
            new RelaySales(redis, keys).forget(saleId);
        }
    }

    /**
     * The consumers in the relays' group of the sale's admission stream: a relay's consumer joins it
     * on the relay's first visit of the sale (its first XREADGROUP there).
     */
    public List<String> relayConsumers(String saleId) {
        return redis.opsForStream().consumers(keys.sale(saleId).admissions(), "relay").stream()
                .map(XInfoConsumer::consumerName)
                .toList();
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

    /** The sale's window closed a second ago, in MySQL and in Redis. */
    public void endSale(String saleId) {
        Instant closed = Instant.now().minusSeconds(1);
        jdbc.sql("UPDATE sales SET ends_at = FROM_UNIXTIME(? / 1000) WHERE id = ?")
                .params(closed.toEpochMilli(), saleId)
                .update();
        redis.opsForHash().put(keys.sale(saleId).meta(), "closes", Long.toString(closed.toEpochMilli()));
    }

    /**
     * A withdrawal's Redis step alone (withdraw.lua), as if the api had stopped before its MySQL
     * transaction; answers the units it took.
     */
    public long withdrawInRedisOnly(String saleId, String key, int units) {
        SaleKeys sale = keys.sale(saleId);
        List<?> reply = redis.execute(
                LuaScripts.load("withdraw", List.class),
                List.of(sale.meta(), sale.stock(), sale.changes()),
                key,
                Integer.toString(units));
        return Long.parseLong(String.valueOf(reply.get(1)));
    }

    /** Undoes a restock's Redis step, as if the api had stopped after its MySQL transaction. */
    public void undoRestockInRedis(String saleId, String key, int units) {
        SaleKeys sale = keys.sale(saleId);
        redis.opsForValue().decrement(sale.stock(), units);
        redis.opsForHash().increment(sale.meta(), "total", -units);
        redis.opsForHash().delete(sale.changes(), key);
    }

    /** Keys of the restocks and withdrawals Redis applied to the sale. */
    public SortedSet<String> redisChanges(String saleId) {
        return new TreeSet<>(hash(keys.sale(saleId).changes()).keySet());
    }

    /** Redis loses the sale: every key of it goes (meta, stock, holds, buyers, stream, changes, buckets). */
    public long loseSale(String saleId) {
        Long buckets = redis.delete(keys(keys.sale(saleId).rateLimits() + ":*"));
        List<String> all = new ArrayList<>(saleKeys(saleId));
        all.add(keys.sale(saleId).changes());
        Long fixed = redis.delete(all);
        return (buckets == null ? 0 : buckets) + (fixed == null ? 0 : fixed);
    }

    /**
     * The fixed keys of the sale (not the token buckets, which come and go with their TTL, nor the
     * unit changes, which exist only once the sale was restocked or withdrawn from).
     */
    public List<String> saleKeys(String saleId) {
        SaleKeys sale = keys.sale(saleId);
        return List.of(sale.stock(), sale.buyers(), sale.holds(), sale.admissions(), sale.meta());
    }

    /** The fixed keys of every sale whose id matches {@code idGlob} (a KEYS pattern). */
    public SortedSet<String> saleKeysMatching(String idGlob) {
        SortedSet<String> found = new TreeSet<>();
        saleKeys(idGlob).forEach(pattern -> found.addAll(keys(pattern)));
        return found;
    }

    private SortedSet<String> redisKeys() {
        SortedSet<String> all = new TreeSet<>(keys(keys.keyPrefix() + "*"));
        all.removeIf(glob(anySalesBuckets()));
        return all;
    }

    /**
     * KEYS {@code pattern}; on a Redis Cluster, on every master that serves slots now, one after the
     * other (a master that failed over has none left and is not asked).
     */
    private Set<String> keys(String pattern) {
        if (!(redis.getRequiredConnectionFactory() instanceof LettuceConnectionFactory lettuce)
                || !lettuce.isClusterAware()) {
            return redis.keys(pattern);
        }
        try (RedisClusterConnection cluster = lettuce.getClusterConnection()) {
            Set<String> found = new TreeSet<>();
            for (RedisClusterNode node : cluster.clusterGetNodes()) {
                if (node.isMaster()
                        && !node.isMarkedAsFail()
                        && !node.getSlotRange().getSlots().isEmpty()) {
                    cluster.keys(node, pattern.getBytes(StandardCharsets.UTF_8))
                            .forEach(key -> found.add(new String(key, StandardCharsets.UTF_8)));
                }
            }
            return found;
        }
    }

    /** The KEYS pattern of every sale's token buckets. */
    private String anySalesBuckets() {
        return keys.sale("*").rateLimits() + ":*";
    }

    /** A KEYS pattern whose only wildcard is {@code *}, as a test of a key name. */
    private static Predicate<String> glob(String pattern) {
        String regex =
                Arrays.stream(pattern.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*"));
        return Pattern.compile(regex).asMatchPredicate();
    }

    private SortedMap<String, String> hash(String key) {
        SortedMap<String, String> entries = new TreeMap<>();
        redis.<String, String>opsForHash().entries(key).forEach(entries::put);
        return entries;
    }
}
