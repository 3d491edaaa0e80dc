package io.flashsale.stores.admission;

import io.flashsale.stores.RedisKeyProperties;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

/**
 * The sales the admission relay visits: a sorted set of sale ids scored by when each sale closes
 * (epoch millis, +inf for a sale without end). A sale joins it when it is loaded into Redis and
 * leaves it once it ended longer than the relay's grace ago with an empty stream (nothing can be
 * admitted after the close), so the relay's cost follows the sales that can still have admissions
 * in flight, not every sale ever created. One key, single-key commands: Redis-Cluster-safe.
 */
public class RelaySales {

    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;

    public RelaySales(StringRedisTemplate redis, RedisKeyProperties keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** A sale the relay visits and when it closes ({@code null}: never). */
    public record RelaySale(String id, Instant closes) {

        /** Ended before {@code since}: no admission can come any more. */
        public boolean endedBefore(Instant since) {
            return closes != null && closes.isBefore(since);
        }
    }

    /** The sales to visit, in id order. */
    public List<RelaySale> all() {
        Set<TypedTuple<String>> members = redis.opsForZSet().rangeWithScores(keys.relaySales(), 0, -1);
        if (members == null) {
            return List.of();
        }
        return members.stream()
                .map(m -> new RelaySale(m.getValue(), closes(m.getScore())))
                .sorted(Comparator.comparing(RelaySale::id))
                .toList();
    }

    /**
     * Adds the sale (idempotent by sale id: ZADD sets the same score again). Called when the sale is
     * loaded into Redis, and by a repair's reload.
     */
    public void add(String saleId, Instant closes) {
        redis.opsForZSet().add(keys.relaySales(), saleId, score(closes));
    }

    /**
     * The sale as Redis has it loaded (its close from its meta), empty when Redis has no meta of it
     * (no buyer can be admitted to it). What the index says is only a hint: a move whose index write
     * was lost leaves an old close there.
     */
    public Optional<RelaySale> asLoaded(String saleId) {
        List<Object> meta = redis.opsForHash().multiGet(keys.sale(saleId).meta(), List.of("opens", "closes"));
        if (meta.get(0) == null) {
            return Optional.empty();
        }
        return Optional.of(new RelaySale(saleId, fromMeta(meta.get(1))));
    }

    /** The relay no longer visits the sale (idempotent: ZREM of an absent member changes nothing). */
    public void forget(String saleId) {
        redis.opsForZSet().remove(keys.relaySales(), saleId);
    }

    /**
     * Sales loaded before this set existed join it, once per installation (idempotent by the marker
     * key; ZADD NX never moves a sale already in the set). Their close time comes from the sale's
     * meta; a sale Redis lost (no meta) is visited for one grace period from now.
     */
    public void indexLoadedSalesOnce() {
        if (Boolean.TRUE.equals(redis.hasKey(keys.relaySalesIndexed()))) {
            return;
        }
        Set<String> loaded = redis.opsForSet().members(keys.sales());
        for (String saleId : loaded == null ? Set.<String>of() : loaded) {
            redis.opsForZSet().addIfAbsent(keys.relaySales(), saleId, score(closesFromMeta(saleId)));
        }
        redis.opsForValue().set(keys.relaySalesIndexed(), "1");
    }

    private Instant closesFromMeta(String saleId) {
        Object closes = redis.opsForHash().get(keys.sale(saleId).meta(), "closes");
        return closes == null ? Instant.now() : fromMeta(closes);
    }

    /** A meta's {@code closes} field: epoch millis, or empty for a sale without end (null). */
    private static Instant fromMeta(Object closes) {
        return closes == null || closes.toString().isEmpty()
                ? null
                : Instant.ofEpochMilli(Long.parseLong(closes.toString()));
    }

    private static double score(Instant closes) {
        return closes == null ? Double.POSITIVE_INFINITY : closes.toEpochMilli();
    }

    private static Instant closes(Double score) {
        return score == null || score.isInfinite() ? null : Instant.ofEpochMilli(score.longValue());
    }
}
