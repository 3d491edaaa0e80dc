package io.flashsale.stores;

/**
 * The Redis keys of one sale, all under one hash tag.
 *
 * @param stock units left (string counter)
 * @param buyers hash user id to {@code purchaseId|idempotencyKey}
 * @param holds hash purchase id to {@code HELD} or {@code RELEASED}
 * @param admissions stream of admitted purchases (the outbox the relay drains)
 * @param meta hash {@code opens}, {@code closes} (epoch millis), {@code payTimeoutSeconds}, {@code total},
 *     optional rate-limit overrides {@code rlUserCapacity}, {@code rlUserRefill}, {@code
 *     rlAddressCapacity}, {@code rlAddressRefill}
 * @param rateLimits prefix of the token buckets (hashes with a TTL, see rate_limit.lua)
 * @param changes hash of the unit changes Redis applied (restock.lua, withdraw.lua): Idempotency-Key
 *     to {@code units:epochMillis}, units signed (+ added, - taken)
 */
public record SaleKeys(
        String stock, String buyers, String holds, String admissions, String meta, String rateLimits, String changes) {

    static SaleKeys of(String base) {
        return new SaleKeys(
                base + ":stock",
                base + ":buyers",
                base + ":holds",
                base + ":admissions",
                base + ":meta",
                base + ":rl",
                base + ":changes");
    }

    /** The token bucket of one buyer; user ids are validated by the api ({@code [A-Za-z0-9._@-]}). */
    public String userBucket(String userId) {
        return rateLimits + ":user:" + userId;
    }

    /** The token bucket of one client address (IPv4 or IPv6 text, as the api normalized it). */
    public String addressBucket(String address) {
        return rateLimits + ":ip:" + address;
    }
}
