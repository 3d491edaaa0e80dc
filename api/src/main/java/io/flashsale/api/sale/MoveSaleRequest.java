package io.flashsale.api.sale;

import jakarta.validation.constraints.AssertTrue;
import java.time.Instant;

/**
 * A sale's new window; a bound left out keeps the sale's. The new end and a changed start may not
 * lie in the past, and the window may not end before it starts.
 */
public record MoveSaleRequest(Instant startsAt, Instant endsAt) {

    /** MySQL TIMESTAMP range, where sale times are kept (as for {@link CreateSaleRequest}). */
    private static final Instant EARLIEST = Instant.ofEpochSecond(1);

    private static final Instant LATEST = Instant.ofEpochSecond(Integer.MAX_VALUE);

    @AssertTrue(message = "name startsAt, endsAt or both")
    boolean isAnyBoundGiven() {
        return startsAt != null || endsAt != null;
    }

    @AssertTrue(message = "startsAt and endsAt must lie between 1970-01-01T00:00:01Z and 2038-01-19T03:14:07Z")
    boolean isWindowStorable() {
        return isStorable(startsAt) && isStorable(endsAt);
    }

    private static boolean isStorable(Instant instant) {
        return instant == null || (!instant.isBefore(EARLIEST) && !instant.isAfter(LATEST));
    }
}
