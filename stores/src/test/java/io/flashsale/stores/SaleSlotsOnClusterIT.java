package io.flashsale.stores;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flashsale.launcher.redis.RedisCluster;
import io.flashsale.launcher.redis.RedisNode;
import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.admission.AdmissionGate.Client;
import io.flashsale.stores.admission.AdmissionOutcome;
import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.admission.RateLimits.Bucket;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.testing.Race;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestRedisCluster;
import io.flashsale.stores.testing.TestSales;
import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The stores on a Redis Cluster of 3 masters: each sale's keys, its token buckets included, live on
 * the master of its hash tag's slot; sales spread over every master; a script that touches a key it
 * was not given is refused.
 */
class SaleSlotsOnClusterIT extends StoresIntegrationTest {

    private static final int UNITS = 10;
    private static final int USERS = 60;

    @DynamicPropertySource
    static void onCluster(DynamicPropertyRegistry registry) {
        TestRedisCluster.register(registry);
    }

    @Test
    void sellsExactlyTheUnitsOfThreeSalesOnThreeMastersRacedAtOnce() throws InterruptedException {
        List<Sale> sales = TestRedisCluster.oneSalePerMaster(keys).stream()
                .map(id -> loaded(TestSales.open(id, UNITS)))
                .toList();
        List<Callable<Admission>> requests = new ArrayList<>();
        for (Sale sale : sales) {
            for (int user = 0; user < USERS; user++) {
                String userId = "u" + user;
                requests.add(() -> admit(gate, sale.id(), userId, "key-" + userId));
                requests.add(() -> admit(gate, sale.id(), userId, "other-" + userId));
            }
        }

        List<Race.Outcome<Admission>> outcomes = Race.run(requests);

        assertThat(outcomes).extracting(Race.Outcome::failure).containsOnlyNulls();
        assertThat(outcomes.stream()
                        .filter(o -> o.value().outcome() == AdmissionOutcome.ADMITTED)
                        .collect(Collectors.groupingBy(o -> saleOf(o.value()), Collectors.counting())))
                .isEqualTo(sales.stream().collect(Collectors.toMap(Sale::id, s -> (long) UNITS)));
        for (Sale sale : sales) {
            assertThat(stock.stock(sale.id())).hasValue(0);
            assertThat(probe.heldCount(sale.id())).isEqualTo(UNITS);
            assertThat(probe.admissions(sale.id())).isEqualTo(UNITS);
        }
        assertThat(sales.stream().map(s -> TestRedisCluster.masterOf(keys, s.id())))
                .containsExactlyInAnyOrderElementsOf(cluster().masters());
        for (Sale sale : sales) {
            for (RedisNode master : cluster().masters()) {
                assertThat(keysOf(master, sale.id()))
                        .containsExactlyInAnyOrderElementsOf(
                                master.equals(TestRedisCluster.masterOf(keys, sale.id()))
                                        ? probe.saleKeys(sale.id())
                                        : List.of());
            }
        }
        assertThat(probe.snapshot(sales.get(0).id()).redisKeys())
                .containsAll(sales.stream()
                        .flatMap(s -> probe.saleKeys(s.id()).stream())
                        .toList());
    }

    @Test
    void limitsABuyerWithTokenBucketsOnTheMasterOfTheSale() {
        Sale sale = loaded(TestSales.open(5));
        Client client = new Client("10.1.2.3", new RateLimits(new Bucket(2, 0.001), new Bucket(10, 0.001)));

        List<AdmissionOutcome> outcomes = List.of(
                gate.admit(sale.id(), "carol", "k1", client).outcome(),
                gate.admit(sale.id(), "carol", "k2", client).outcome(),
                gate.admit(sale.id(), "carol", "k3", client).outcome());

        assertThat(outcomes)
                .containsExactly(
                        AdmissionOutcome.ADMITTED, AdmissionOutcome.ALREADY_PURCHASED, AdmissionOutcome.RATE_LIMITED);
        SaleKeys sk = keys.sale(sale.id());
        assertThat(probe.buckets(sale.id())).containsOnlyKeys(sk.userBucket("carol"), sk.addressBucket("10.1.2.3"));
        assertThat(keysOf(TestRedisCluster.masterOf(keys, sale.id()), sale.id()))
                .contains(sk.userBucket("carol"), sk.addressBucket("10.1.2.3"));
    }

    @Test
    void refusesAScriptThatReadsAKeyItWasNotGivenEvenOnTheSameMaster() {
        String saleId = TestSales.newId();
        RedisNode master = TestRedisCluster.masterOf(keys, saleId);
        String neighbour = TestSales.newId();
        while (!TestRedisCluster.masterOf(keys, neighbour).equals(master) || slot(neighbour) == slot(saleId)) {
            neighbour = TestSales.newId();
        }
        String undeclared = keys.sale(neighbour).stock();

        assertThatThrownBy(() -> redis.execute(
                        LuaScripts.load("reads_a_key_it_was_not_given", Long.class),
                        List.of(keys.sale(saleId).stock()),
                        undeclared))
                .isInstanceOf(RedisSystemException.class)
                .rootCause()
                .hasMessageContaining("do not hash to the same slot");
    }

    private String saleOf(Admission admission) {
        String rest = admission.purchaseId().substring("purchase-".length());
        return rest.substring(0, rest.indexOf('-'));
    }

    /** The keys of the sale that the node itself holds. */
    private List<String> keysOf(RedisNode node, String saleId) {
        return cluster().keys(node, keys.sale(saleId).stock().replace(":stock", ":*"));
    }

    private int slot(String saleId) {
        return SlotHash.getSlot(keys.sale(saleId).stock());
    }

    private static RedisCluster cluster() {
        return TestRedisCluster.shared();
    }
}
