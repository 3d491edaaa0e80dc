package io.flashsale.stores.audit;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleChanges;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * A repair racing an operator's change of the same sale, with the change landing at the moment that
 * hurts: after the repair read MySQL's facts, before its script writes Redis.
 */
class RepairRacesIT extends StoresIntegrationTest {

    @Autowired
    SaleRepository sales;

    @Autowired
    SaleChanges changes;

    @Autowired
    PlatformTransactionManager transactions;

    @Test
    void keepsAWithdrawalThatCommittedWhileTheRepairGatheredItsFacts() {
        Sale sale = TestSales.open(5);
        sales.insertIfAbsent(sale);
        loaded(sale);
        Admission held = admit(gate, sale.id(), "ann", "k1");
        gate.forget(sale.id(), held.entryId()); // its workflow runs: nothing in flight

        String repaired = SaleAuditProbe.repair(
                new SaleAuditProbe.Stores(jdbc, redis, keys, sales, stock, transactions),
                sale.id(),
                purchaseId -> true,
                () -> assertThat(changes.withdraw(sale.id(), "w1", 2, "ops")).isEqualTo(SaleChanges.Outcome.CHANGED));

        assertThat(repaired).isEqualTo("OK 2");
        assertThat(sales.find(sale.id()).orElseThrow())
                .extracting(Sale::total, Sale::available)
                .containsExactly(3, 3);
        assertThat(stock.stock(sale.id())).hasValue(2L);
        assertThat(redis.opsForHash().get(keys.sale(sale.id()).meta(), "total")).isEqualTo("3");
        assertThat(redis.opsForHash().keys(keys.sale(sale.id()).changes())).containsExactly("w1");
    }
}
