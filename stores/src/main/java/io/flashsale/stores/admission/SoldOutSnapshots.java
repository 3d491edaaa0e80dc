package io.flashsale.stores.admission;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/** {@link SoldOutMarks.Snapshot}s from Redis: sold_out_snapshot.lua, one atomic read of the sale. */
public class SoldOutSnapshots implements SoldOutMarks.Snapshots {

    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;
    private final RedisScript<List> script;
    private final int maxBuyers;

    /** @param maxBuyers a sale with more buyers than this is never marked (its list would cost too much memory) */
    public SoldOutSnapshots(
            StringRedisTemplate redis, RedisKeyProperties keys, RedisScript<List> script, int maxBuyers) {
        this.redis = redis;
        this.keys = keys;
        this.script = script;
        this.maxBuyers = maxBuyers;
    }

    @Override
    public Optional<SoldOutMarks.Snapshot> take(String saleId) {
        SaleKeys sk = keys.sale(saleId);
        List<?> reply = redis.execute(script, List.of(sk.meta(), sk.stock(), sk.buyers()), Integer.toString(maxBuyers));
        if (reply == null || reply.isEmpty()) {
            return Optional.empty();
        }
        String untilClose = reply.get(0).toString();
        Set<String> buyers =
                reply.subList(1, reply.size()).stream().map(Object::toString).collect(Collectors.toSet());
        return Optional.of(new SoldOutMarks.Snapshot(
                buyers, untilClose.isEmpty() ? null : Duration.ofMillis(Long.parseLong(untilClose))));
    }
}
