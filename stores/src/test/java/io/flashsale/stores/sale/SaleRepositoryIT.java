package io.flashsale.stores.sale;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class SaleRepositoryIT extends StoresIntegrationTest {

    @Autowired
    SaleRepository sales;

    @Test
    void insertsASaleOnceByItsId() {
        Instant starts = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Sale sale = new Sale(
                TestSales.newId(),
                "phones",
                10,
                10,
                starts,
                starts.plusSeconds(600),
                Duration.ofMinutes(5),
                RateLimits.NONE,
                TestSales.PRICE);

        boolean first = sales.insertIfAbsent(sale);
        boolean second = sales.insertIfAbsent(new Sale(
                sale.id(), "other", 99, 99, null, null, Duration.ofMinutes(1), RateLimits.NONE, TestSales.PRICE));

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(sales.find(sale.id())).hasValue(sale);
    }

    @Test
    void keepsTheSalesOwnRateLimits() {
        Sale sale = new Sale(
                TestSales.newId(),
                "limited",
                3,
                3,
                null,
                null,
                Duration.ofMinutes(1),
                new RateLimits(new RateLimits.Bucket(2, 0.25), null),
                TestSales.PRICE);

        sales.insertIfAbsent(sale);

        assertThat(sales.find(sale.id())).hasValue(sale);
    }

    @Test
    void keepsOpenEndedSalesOpenEnded() {
        Sale sale = TestSales.open(3);

        sales.insertIfAbsent(sale);

        assertThat(sales.find(sale.id())).hasValue(sale);
    }

    @Test
    void findsNoUnknownSaleAndCountsNoOrders() {
        String saleId = TestSales.newId();

        assertThat(sales.find(saleId)).isEmpty();
        assertThat(sales.counts(saleId)).isEqualTo(new SaleCounts(0, 0, 0, 0));
    }
}
