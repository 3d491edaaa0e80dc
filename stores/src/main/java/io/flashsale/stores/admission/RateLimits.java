package io.flashsale.stores.admission;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import java.util.List;

/**
 * Token buckets of the purchase request (rate_limit.lua): per user and per client address, both per
 * sale. The api passes its configured defaults with every admission; a sale's meta overrides them.
 *
 * @param perUser null: no override (in a sale) or no limit
 * @param perAddress null: no override (in a sale) or no limit
 */
public record RateLimits(@Valid Bucket perUser, @Valid Bucket perAddress) {

    /** No buckets: nothing is limited (and, as a sale's override, nothing overridden). */
    public static final RateLimits NONE = new RateLimits(null, null);

    /**
     * @param capacity tokens a full bucket holds, the burst one buyer or address may send; 0 = no limit
     * @param refillPerSecond tokens added per second, the sustained rate
     */
    public record Bucket(@Min(0) @Max(1_000_000) int capacity, @Positive @Max(1_000_000) double refillPerSecond) {}

    /** ARGV of rate_limit.lua: user capacity, refill, address capacity, refill ("" for a missing bucket). */
    public List<String> arguments() {
        return List.of(
                perUser == null ? "" : Integer.toString(perUser.capacity()),
                perUser == null ? "" : Double.toString(perUser.refillPerSecond()),
                perAddress == null ? "" : Integer.toString(perAddress.capacity()),
                perAddress == null ? "" : Double.toString(perAddress.refillPerSecond()));
    }
}
