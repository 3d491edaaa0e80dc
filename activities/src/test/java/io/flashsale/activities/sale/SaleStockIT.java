package io.flashsale.activities.sale;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.activities.admission.AdmissionGate;
import io.flashsale.activities.testing.ActivitiesTestConfiguration;
import io.flashsale.activities.testing.TestSales;
import io.flashsale.activities.testing.TestStores;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(classes = ActivitiesTestConfiguration.class)
class SaleStockIT {

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        TestStores.register(registry);
    }

    @Autowired
    SaleStock stock;

    @Autowired
    AdmissionGate gate;

    @Test
    void loadingTwiceDoesNotResetARunningSale() {
        Sale sale = TestSales.open(5);
        boolean first = stock.load(sale);
        gate.admit(sale.id(), "u1", "k");

        boolean second = stock.load(sale);

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(stock.stock(sale.id())).hasValue(4);
        assertThat(stock.heldCount(sale.id())).isEqualTo(1);
    }

    @Test
    void knowsNoStockOfASaleNeverLoaded() {
        String saleId = TestSales.newId();

        assertThat(stock.stock(saleId)).isEmpty();
        assertThat(stock.heldCount(saleId)).isZero();
    }
}
