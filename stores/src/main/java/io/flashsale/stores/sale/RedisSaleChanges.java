package io.flashsale.stores.sale;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/** The Redis side of the sale changes: one script each, atomic on the sale's keys (see their headers). */
class RedisSaleChanges {

    /** What withdraw.lua did: {@code taken} units off sale, by this call or ({@code before}) an earlier one. */
    record Withdrawal(boolean loaded, boolean before, int taken) {}

    /** The scripts, one {@link RedisScript} bean each. */
    record Scripts(
            RedisScript<Long> close, RedisScript<Long> move, RedisScript<Long> restock, RedisScript<List> withdraw) {}

    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;
    private final Scripts scripts;

    RedisSaleChanges(StringRedisTemplate redis, RedisKeyProperties keys, Scripts scripts) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
    }

    /** close.lua: when the sale closes after the call; empty when Redis does not have the sale. */
    OptionalLong close(String saleId) {
        Long closes = redis.execute(scripts.close(), List.of(keys.sale(saleId).meta()));
        return closes == null || closes < 0 ? OptionalLong.empty() : OptionalLong.of(closes);
    }

    /** move.lua: 1 moved, -1 not loaded, -2 closed (nothing changed). */
    long move(String saleId, Instant startsAt, Instant endsAt) {
        String opens = Long.toString(startsAt == null ? 0 : startsAt.toEpochMilli());
        String closes = endsAt == null ? "" : Long.toString(endsAt.toEpochMilli());
        Long code = redis.execute(scripts.move(), List.of(keys.sale(saleId).meta()), opens, closes);
        return code == null ? 0 : code;
    }

    /** restock.lua: 1 added now, 0 added before (same key), -1 not loaded. */
    long restock(String saleId, String key, int units) {
        SaleKeys sk = keys.sale(saleId);
        Long code = redis.execute(
                scripts.restock(),
                List.of(sk.meta(), sk.stock(), sk.changes()),
                key,
                Integer.toString(units),
                keys.stockReturned(),
                saleId);
        return code == null ? 0 : code;
    }

    /** withdraw.lua: takes at most {@code units} of the stock left, once per key. */
    Withdrawal withdraw(String saleId, String key, int units) {
        SaleKeys sk = keys.sale(saleId);
        List<?> reply = redis.execute(
                scripts.withdraw(), List.of(sk.meta(), sk.stock(), sk.changes()), key, Integer.toString(units));
        String code = String.valueOf(reply.get(0));
        int taken = Integer.parseInt(String.valueOf(reply.get(1)));
        return new Withdrawal(!"UNKNOWN_SALE".equals(code), "TAKEN_BEFORE".equals(code), taken);
    }
}
