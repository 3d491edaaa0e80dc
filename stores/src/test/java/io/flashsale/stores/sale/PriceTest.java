package io.flashsale.stores.sale;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PriceTest {

    @Test
    void isPaidByExactlyItsAmountAndCurrency() {
        Price price = new Price(1999, "EUR");

        assertThat(price.isPaidBy(new Price(1999, "EUR"))).isTrue();
        assertThat(price.isPaidBy(new Price(1998, "EUR"))).isFalse();
        assertThat(price.isPaidBy(new Price(1999, "USD"))).isFalse();
        assertThat(new Price(0, "EUR").isPaidBy(new Price(0, "EUR")))
                .as("a give-away")
                .isTrue();
    }

    @Test
    void neverLetsTheUnsetPriceOfAnOldSaleBePaid() {
        assertThat(Price.UNSET.isPaidBy(new Price(0, "XXX"))).isFalse();
        assertThat(Price.UNSET.isPaidBy(Price.UNSET)).isFalse();
    }
}
