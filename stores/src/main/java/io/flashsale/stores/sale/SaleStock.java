package io.flashsale.stores.sale;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import io.flashsale.stores.admission.RelaySales;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/** A sale's stock in Redis: loading it once, and reading it for status and audit. */
public class SaleStock {

    /** The field an unlisted sale's buyers and holds are created with (user and purchase ids have no '#'). */
    static final String UNLISTED_PLACEHOLDER = "#";

    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;
    private final RedisScript<Long> loadSale;
    private final RelaySales relaySales;

    public SaleStock(
            StringRedisTemplate redis, RedisKeyProperties keys, RedisScript<Long> loadSale, RelaySales relaySales) {
        this.redis = redis;
        this.keys = keys;
        this.loadSale = loadSale;
        this.relaySales = relaySales;
    }

    /**
     * Idempotent by sale id: meta (with the sale's own token buckets) and stock are written only
     * when the sale is not in Redis yet (a running sale is never reset). The id joins the global set
     * of sales and the relay's sales afterwards, separate commands because those sets lie outside
     * the sale's hash slot. A sale whose Redis side was archived is never loaded again.
     *
     * @return true when this call loaded the sale
     */
    public boolean load(Sale sale) {
        if (sale.redisArchived()) {
            return false;
        }
        boolean loaded = loadKeys(sale);
        redis.opsForSet().add(keys.sales(), sale.id());
        relaySales.add(sale.id(), sale.endsAt());
        return loaded;
    }

    /**
     * Puts a sale into Redis that no list knows (not a sale of the audit, the relay or the archive),
     * its keys expiring after {@code ttl}: the api's private sales to warm its admission path on.
     */
    public void loadUnlisted(Sale sale, Duration ttl) {
        loadKeys(sale);
        SaleKeys sk = keys.sale(sale.id());
        // admit.lua writes buyers and holds without an expiry, and HSET keeps one: a field no user
        // or purchase id can be ('#') makes them exist now, so they expire even if no one unloads
        for (String hash : List.of(sk.buyers(), sk.holds())) {
            redis.opsForHash().putIfAbsent(hash, UNLISTED_PLACEHOLDER, "");
        }
        for (String key : unlistedKeys(sk)) {
            redis.expire(key, ttl);
        }
    }

    /**
     * Deletes an unlisted sale's keys: the warm-up's sale that admitted, once the warm-up is done.
     * One DEL, one hash slot.
     */
    public void unloadUnlisted(String saleId) {
        redis.delete(unlistedKeys(keys.sale(saleId)));
    }

    /** Every key an unlisted sale has: loaded, and written by its admissions. */
    private static List<String> unlistedKeys(SaleKeys sk) {
        return List.of(sk.meta(), sk.stock(), sk.buyers(), sk.holds(), sk.admissions());
    }

    /** load_sale.lua: meta and stock, only when the sale is not in Redis yet. */
    private boolean loadKeys(Sale sale) {
        SaleKeys sk = keys.sale(sale.id());
        List<String> args = new ArrayList<>(List.of(
                Long.toString(millis(sale.startsAt(), 0)),
                sale.endsAt() == null ? "" : Long.toString(sale.endsAt().toEpochMilli()),
                Long.toString(sale.payTimeout().toSeconds()),
                Integer.toString(sale.total()),
                Integer.toString(sale.available())));
        args.addAll(sale.rateLimits().arguments());
        args.add(Long.toString(sale.price().amountMinor()));
        args.add(sale.price().currency());
        args.add(keys.stockReturned());
        args.add(sale.id());
        Long loaded = redis.execute(loadSale, List.of(sk.meta(), sk.stock(), sk.admissions()), args.toArray());
        return loaded != null && loaded == 1;
    }

    /** The unit price kept in the sale's meta; empty when Redis has no price for the sale. */
    public Optional<Price> price(String saleId) {
        List<Object> fields = redis.opsForHash().multiGet(keys.sale(saleId).meta(), List.of("priceMinor", "currency"));
        if (fields.get(0) == null || fields.get(1) == null) {
            return Optional.empty();
        }
        return Optional.of(new Price(
                Long.parseLong(fields.get(0).toString()), fields.get(1).toString()));
    }

    /** Units left in Redis; empty when Redis has no stock key for the sale. */
    public OptionalLong stock(String saleId) {
        String stock = redis.opsForValue().get(keys.sale(saleId).stock());
        return stock == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(stock));
    }

    private static long millis(Instant instant, long otherwise) {
        return instant == null ? otherwise : instant.toEpochMilli();
    }
}
