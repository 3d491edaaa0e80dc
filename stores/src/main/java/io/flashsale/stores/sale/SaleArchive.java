package io.flashsale.stores.sale;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import io.flashsale.stores.admission.RelaySales;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Archives the Redis side of ended sales whose purchases are all final: their keys go (archive.lua),
 * MySQL keeps the record and says since when ({@code sales.redis_archived_at}). Redis first, MySQL
 * second: a crash in between leaves a sale whose keys are gone and whose next archive call records
 * it (the script answers 1 for a sale with nothing left). Idempotent by sale id throughout.
 */
public class SaleArchive {

    /** What one attempt to archive a sale found. */
    public enum Outcome {
        /** The Redis side is archived (now, or before). */
        ARCHIVED,
        /** An order is PENDING_PAYMENT in MySQL. */
        PENDING_PAYMENT,
        /** The sale's admission stream holds entries whose workflows may not run yet. */
        ADMISSIONS_IN_FLIGHT,
        /**
         * The HELD holds are not exactly the PAID orders' purchases: a purchase between admission and
         * its order, or drift.
         */
        HOLDS_NOT_FINAL
    }

    private final SaleRepository sales;
    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;
    private final RedisScript<Long> archiveScript;
    private final RelaySales relaySales;

    public SaleArchive(
            SaleRepository sales,
            StringRedisTemplate redis,
            RedisKeyProperties keys,
            RedisScript<Long> archiveScript,
            RelaySales relaySales) {
        this.sales = sales;
        this.redis = redis;
        this.keys = keys;
        this.archiveScript = archiveScript;
        this.relaySales = relaySales;
    }

    /**
     * Archives the sale when every purchase is final. The caller picks ended sales; the checks here
     * hold whenever it is called.
     *
     * @param marker how long a marker (window and "archived") stays, so late buyers hear "not open"
     */
    public Outcome archiveIfFinal(String saleId, Duration marker) {
        SaleCounts counts = sales.counts(saleId);
        if (counts.pendingPayment() > 0) {
            return Outcome.PENDING_PAYMENT;
        }
        Outcome outcome = archiveRedis(saleId, sales.paidPurchaseIds(saleId), marker);
        if (outcome == Outcome.ARCHIVED) {
            redis.opsForSet().remove(keys.sales(), saleId);
            relaySales.forget(saleId);
            sales.markRedisArchived(saleId);
        }
        return outcome;
    }

    private Outcome archiveRedis(String saleId, List<String> paid, Duration marker) {
        SaleKeys sk = keys.sale(saleId);
        List<String> args = new ArrayList<>(paid.size() + 1);
        args.add(Long.toString(marker.toMillis()));
        args.addAll(paid);
        Long answer = redis.execute(
                archiveScript,
                List.of(sk.meta(), sk.stock(), sk.buyers(), sk.holds(), sk.admissions(), sk.changes()),
                args.toArray(Object[]::new));
        return switch (answer == null ? 0 : answer.intValue()) {
            case 1 -> Outcome.ARCHIVED;
            case -1 -> Outcome.ADMISSIONS_IN_FLIGHT;
            case -2 -> Outcome.HOLDS_NOT_FINAL;
            default -> throw new IllegalStateException("archive.lua answered " + answer + " for sale " + saleId);
        };
    }
}
