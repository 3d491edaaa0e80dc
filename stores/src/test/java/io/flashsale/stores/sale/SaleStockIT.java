package io.flashsale.stores.sale;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import org.junit.jupiter.api.Test;

class SaleStockIT extends StoresIntegrationTest {

    @Test
    void loadingTwiceDoesNotResetARunningSale() {
        Sale sale = TestSales.open(5);
        boolean first = stock.load(sale);
        admit(gate, sale.id(), "u1", "k");

        boolean second = stock.load(sale);

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(stock.stock(sale.id())).hasValue(4);
        assertThat(probe.heldCount(sale.id())).isEqualTo(1);
    }

    @Test
    void keepsThePriceInRedisSoThatItIsReadWithoutMySql() {
        Sale sale = loaded(TestSales.open(1));

        assertThat(stock.price(sale.id())).hasValue(TestSales.PRICE);
        assertThat(stock.price(TestSales.newId())).isEmpty();
    }

    @Test
    void unloadingAnUnlistedSaleLeavesNoneOfItsKeysAndNoList() {
        Sale sale = TestSales.open(5);
        stock.loadUnlisted(sale, java.time.Duration.ofMinutes(1));
        admit(gate, sale.id(), "u1", "k");
        io.flashsale.stores.SaleKeys sk = keys.sale(sale.id());
        java.util.List<String> written =
                java.util.List.of(sk.meta(), sk.stock(), sk.buyers(), sk.holds(), sk.admissions());
        assertThat(redis.countExistingKeys(written))
                .as("the admission wrote them")
                .isEqualTo(5);
        assertThat(written)
                .as("each expires, even if never unloaded")
                .allSatisfy(key -> assertThat(redis.getExpire(key)).isPositive());

        stock.unloadUnlisted(sale.id());

        assertThat(redis.countExistingKeys(written)).isZero();
        assertThat(redis.opsForSet().isMember(keys.sales(), sale.id())).isFalse();
        assertThat(redis.opsForZSet().score(keys.relaySales(), sale.id())).isNull();
    }

    @Test
    void knowsNoStockOfASaleNeverLoaded() {
        String saleId = TestSales.newId();

        assertThat(stock.stock(saleId)).isEmpty();
        assertThat(probe.heldCount(saleId)).isZero();
    }
}
