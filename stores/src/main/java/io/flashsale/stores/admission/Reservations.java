package io.flashsale.stores.admission;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Redis hold of a purchase after its admission. Every method is idempotent by purchase id: the
 * hold is one field of {@code {sale:ID}:holds} ({@link HoldState}), and only a HELD hold moves
 * stock (confirm.lua, release.lua) or becomes VOID (void.lua). Redis errors propagate.
 */
public class Reservations {

    /** confirm.lua's answer when the sale's stock key is missing. */
    private static final long NO_STOCK_KEY = -3;

    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;
    private final RedisScript<Long> confirm;
    private final RedisScript<Long> release;
    private final RedisScript<Long> voidHold;

    public Reservations(
            StringRedisTemplate redis,
            RedisKeyProperties keys,
            RedisScript<Long> confirm,
            RedisScript<Long> release,
            RedisScript<Long> voidHold) {
        this.redis = redis;
        this.keys = keys;
        this.confirm = confirm;
        this.release = release;
        this.voidHold = voidHold;
    }

    /**
     * True when the hold is HELD, or Redis lost it and stock remained to take it again. Redis without
     * the sale's stock key (lost, not yet repaired) cannot tell: that is an error to retry, not "no
     * unit left".
     */
    public boolean confirm(String saleId, String purchaseId, String userId) {
        SaleKeys sk = keys.sale(saleId);
        Long code = redis.execute(confirm, List.of(sk.holds(), sk.stock(), sk.buyers()), purchaseId, userId);
        if (code != null && code == NO_STOCK_KEY) {
            throw new IllegalStateException("Redis has no stock for sale " + saleId + " (lost?): retry after repair");
        }
        return code != null && code > 0;
    }

    /**
     * True when this call turned the HELD hold into RELEASED and gave the unit back; release.lua then
     * announces the sale on the stock-returned channel, so the apis' sold-out marks drop it.
     */
    public boolean release(String saleId, String purchaseId) {
        SaleKeys sk = keys.sale(saleId);
        Long code = redis.execute(release, List.of(sk.holds(), sk.stock()), purchaseId, keys.stockReturned(), saleId);
        return code != null && code == 1;
    }

    /** True when this call turned the HELD hold into VOID (stock untouched, buyer forgotten). */
    public boolean voidHold(String saleId, String purchaseId, String userId) {
        SaleKeys sk = keys.sale(saleId);
        Long code = redis.execute(voidHold, List.of(sk.holds(), sk.buyers()), purchaseId, userId);
        return code != null && code == 1;
    }
}
