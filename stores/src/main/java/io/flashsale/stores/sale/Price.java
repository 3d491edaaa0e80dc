package io.flashsale.stores.sale;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/**
 * A unit price: an amount in the currency's minor units (cents) and an ISO 4217 code. Payments must
 * name exactly this; amounts are never floating point.
 *
 * @param amountMinor 0 (a give-away) up to 10^12 minor units
 * @param currency three capital letters, e.g. {@code EUR}
 */
public record Price(
        @Min(0) @Max(1_000_000_000_000L) long amountMinor,
        @NotNull @Pattern(regexp = "[A-Z]{3}", message = "must be an ISO 4217 code such as EUR") String currency) {

    /** The price of sales created before sales had one (ISO 4217 XXX: no currency); nothing can pay it. */
    public static final Price UNSET = new Price(0, "XXX");

    /** A payment of {@code amount} pays this price: exactly it, and never the unset price. */
    public boolean isPaidBy(Price amount) {
        return !equals(UNSET) && equals(amount);
    }

    @Override
    public String toString() {
        return amountMinor + " " + currency;
    }
}
