package io.flashsale.stores.audit;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import io.flashsale.stores.admission.HoldState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/** A sale's Redis side for the audit: one consistent snapshot, and the repair script. */
class RedisFacts {

    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;
    private final RedisScript<List> snapshot;
    private final RedisScript<List> repair;
    private final RedisScript<Long> release;

    RedisFacts(
            StringRedisTemplate redis,
            RedisKeyProperties keys,
            RedisScript<List> snapshot,
            RedisScript<List> repair,
            RedisScript<Long> release) {
        this.redis = redis;
        this.keys = keys;
        this.snapshot = snapshot;
        this.repair = repair;
        this.release = release;
    }

    RedisSnapshot snapshot(String saleId) {
        SaleKeys sk = keys.sale(saleId);
        List<?> reply = redis.execute(
                snapshot, List.of(sk.meta(), sk.stock(), sk.buyers(), sk.holds(), sk.admissions(), sk.changes()));
        String stock = text(reply.get(1));
        return new RedisSnapshot(
                number(reply.get(0)) == 1,
                stock.isEmpty() ? null : Long.parseLong(stock),
                number(reply.get(2)),
                number(reply.get(3)),
                number(reply.get(4)),
                holds((List<?>) reply.get(5)),
                ((List<?>) reply.get(6)).stream().map(RedisFacts::text).toList(),
                changes((List<?>) reply.get(7), number(reply.get(8))));
    }

    /** Runs repair.lua; empty when it refused because admissions arrived since {@code seen}. */
    Optional<List<?>> repair(String saleId, int total, RedisSnapshot seen, RepairPlan plan) {
        SaleKeys sk = keys.sale(saleId);
        List<String> args = new ArrayList<>(
                List.of(Integer.toString(total), Long.toString(seen.buyers()), keys.stockReturned(), saleId));
        args.add(Integer.toString(plan.hold().size()));
        args.addAll(plan.hold());
        args.add(Integer.toString(plan.release().size()));
        args.addAll(plan.release());
        args.add(Integer.toString(plan.changes().size()));
        plan.changes().forEach((key, units) -> args.addAll(List.of(key, Integer.toString(units))));
        plan.buyers().forEach((user, purchaseId) -> args.addAll(List.of(user, purchaseId)));
        List<?> reply = redis.execute(
                repair,
                List.of(sk.holds(), sk.stock(), sk.buyers(), sk.admissions(), sk.meta(), sk.changes()),
                args.toArray(Object[]::new));
        return "OK".equals(text(reply.get(0))) ? Optional.of(reply) : Optional.empty();
    }

    /** release.lua: only a HELD hold becomes RELEASED and gives its unit back. */
    boolean release(String saleId, String purchaseId) {
        SaleKeys sk = keys.sale(saleId);
        Long code = redis.execute(release, List.of(sk.holds(), sk.stock()), purchaseId, keys.stockReturned(), saleId);
        return code != null && code == 1;
    }

    static String text(Object value) {
        return value == null ? "" : value.toString();
    }

    static long number(Object value) {
        return Long.parseLong(text(value));
    }

    /** {@code key, "units:epochMillis", ...}, overdue when applied longer than the grace before {@code now}. */
    private static Map<String, AppliedChange> changes(List<?> flat, long now) {
        Map<String, AppliedChange> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            String[] applied = text(flat.get(i + 1)).split(":");
            long age = now - Long.parseLong(applied[1]);
            map.put(
                    text(flat.get(i)),
                    new AppliedChange(Integer.parseInt(applied[0]), age > MySqlFacts.OVERDUE_GRACE_SECONDS * 1000L));
        }
        return map;
    }

    private static Map<String, HoldState> holds(List<?> flat) {
        Map<String, HoldState> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            map.put(text(flat.get(i)), HoldState.valueOf(text(flat.get(i + 1))));
        }
        return map;
    }
}
