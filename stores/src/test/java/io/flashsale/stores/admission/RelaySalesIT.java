package io.flashsale.stores.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.RelaySales.RelaySale;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class RelaySalesIT extends StoresIntegrationTest {

    @Autowired
    RelaySales relaySales;

    @Test
    void aLoadedSaleJoinsWithItsCloseTimeAndLeavesWhenForgotten() {
        Sale open = loaded(TestSales.open(1));
        Sale closed = loaded(TestSales.closed(1));

        assertThat(relaySales.all())
                .contains(
                        new RelaySale(open.id(), null),
                        new RelaySale(closed.id(), closed.endsAt().truncatedTo(ChronoUnit.MILLIS)));

        relaySales.forget(closed.id());
        assertThat(relaySales.all())
                .extracting(RelaySale::id)
                .contains(open.id())
                .doesNotContain(closed.id());
    }

    @Test
    void indexesSalesLoadedBeforeTheRelaysSetExistedOnce() {
        Sale closed = loaded(TestSales.closed(1));
        Sale open = loaded(TestSales.open(1));
        String lost = TestSales.newId();
        redis.opsForSet().add(keys.sales(), lost);
        redis.delete(keys.relaySales());
        redis.delete(keys.relaySalesIndexed());
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        relaySales.indexLoadedSalesOnce();

        assertThat(relaySales.all())
                .contains(
                        new RelaySale(open.id(), null),
                        new RelaySale(closed.id(), closed.endsAt().truncatedTo(ChronoUnit.MILLIS)));
        assertThat(relaySales.all())
                .filteredOn(s -> s.id().equals(lost))
                .singleElement()
                .satisfies(s -> assertThat(s.closes()).isAfterOrEqualTo(before));
        relaySales.forget(open.id());
        relaySales.indexLoadedSalesOnce();
        assertThat(relaySales.all()).extracting(RelaySale::id).doesNotContain(open.id());
    }
}
