package io.flashsale.stores.testing;

import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.sale.Price;
import io.flashsale.stores.sale.Sale;
import io.flashsale.testkit.ApiClient;
import java.time.Duration;
import java.time.Instant;

/** Sales for tests, each with a fresh id {@code t<random>} so tests tolerate leftovers. */
public final class TestSales {

    /** The unit price of every test sale. */
    /** The price the tests' client pays by default ({@link ApiClient#UNIT_PRICE}). */
    public static final Price PRICE = new Price(ApiClient.UNIT_PRICE.amountMinor(), ApiClient.UNIT_PRICE.currency());

    private TestSales() {}

    /** Open now, no end, 60 s to pay. */
    public static Sale open(int units) {
        return open(newId(), units);
    }

    /** {@link #open(int)} with the id {@code id}. */
    public static Sale open(String id, int units) {
        return new Sale(id, "test sale", units, units, null, null, Duration.ofSeconds(60), RateLimits.NONE, PRICE);
    }

    public static Sale closed(int units) {
        Instant now = Instant.now();
        return new Sale(
                newId(),
                "closed sale",
                units,
                units,
                now.minusSeconds(120),
                now.minusSeconds(60),
                Duration.ofSeconds(60),
                RateLimits.NONE,
                PRICE);
    }

    public static Sale notYetOpen(int units) {
        return new Sale(
                newId(),
                "later sale",
                units,
                units,
                Instant.now().plusSeconds(3600),
                null,
                Duration.ofSeconds(60),
                RateLimits.NONE,
                PRICE);
    }

    public static String newId() {
        return "t" + TestStores.random(12);
    }
}
