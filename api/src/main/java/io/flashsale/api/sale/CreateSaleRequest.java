package io.flashsale.api.sale;

import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.sale.Price;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.time.Instant;

/**
 * A new sale. The id is optional (generated when absent); sale ids have no hyphen because the
 * purchase id {@code purchase-{saleId}-{userId}} must stay unambiguous. {@code rateLimits} (optional,
 * each bucket optional) overrides the api's default token buckets for this sale; MySQL keeps it with
 * the sale and loads it into the sale's Redis meta (again after a repair). {@code price} is what one
 * unit costs; the payment service must confirm exactly this amount.
 */
public record CreateSaleRequest(
        @Pattern(regexp = SaleIds.PATTERN, message = "must be 1-40 letters, digits or underscores") String id,
        @NotBlank @Size(max = 200) String name,
        @Min(1) @Max(1_000_000) int stock,
        Instant startsAt,
        Instant endsAt,
        Duration payTimeout,
        @Valid RateLimits rateLimits,
        @NotNull @Valid Price price) {

    static final Duration DEFAULT_PAY_TIMEOUT = Duration.ofMinutes(15);

    RateLimits rateLimitsOrNone() {
        return rateLimits == null ? RateLimits.NONE : rateLimits;
    }

    Duration payTimeoutOrDefault() {
        return payTimeout == null ? DEFAULT_PAY_TIMEOUT : payTimeout;
    }

    @AssertTrue(message = "payTimeout must be between PT1S and P1D")
    boolean isPayTimeoutInRange() {
        Duration timeout = payTimeoutOrDefault();
        return timeout.compareTo(Duration.ofSeconds(1)) >= 0 && timeout.compareTo(Duration.ofDays(1)) <= 0;
    }

    /** MySQL TIMESTAMP range (1970-01-01T00:00:01Z to 2038-01-19T03:14:07Z), where sale times are kept. */
    private static final Instant EARLIEST = Instant.ofEpochSecond(1);

    private static final Instant LATEST = Instant.ofEpochSecond(Integer.MAX_VALUE);

    @AssertTrue(message = "startsAt and endsAt must lie between 1970-01-01T00:00:01Z and 2038-01-19T03:14:07Z")
    boolean isWindowStorable() {
        return isStorable(startsAt) && isStorable(endsAt);
    }

    private static boolean isStorable(Instant instant) {
        return instant == null || (!instant.isBefore(EARLIEST) && !instant.isAfter(LATEST));
    }

    @AssertTrue(message = "endsAt must be after startsAt")
    boolean isWindowOrdered() {
        return startsAt == null || endsAt == null || endsAt.isAfter(startsAt);
    }
}
