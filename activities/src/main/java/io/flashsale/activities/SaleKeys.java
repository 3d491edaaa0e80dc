package io.flashsale.activities;

import java.util.List;

/**
 * The Redis keys of one sale, all under one hash tag.
 *
 * @param stock units left (string counter)
 * @param buyers hash user id to {@code purchaseId|idempotencyKey}
 * @param holds hash purchase id to {@code HELD} or {@code RELEASED}
 * @param admissions stream of admitted purchases (the outbox the relay drains)
 * @param meta hash {@code opens}, {@code closes} (epoch millis), {@code payTimeoutSeconds}, {@code total}
 */
public record SaleKeys(String stock, String buyers, String holds, String admissions, String meta) {

    static SaleKeys of(String base) {
        return new SaleKeys(base + ":stock", base + ":buyers", base + ":holds", base + ":admissions", base + ":meta");
    }

    public List<String> all() {
        return List.of(stock, buyers, holds, admissions, meta);
    }
}
