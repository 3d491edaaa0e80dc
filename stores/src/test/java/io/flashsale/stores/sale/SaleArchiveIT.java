package io.flashsale.stores.sale;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.SaleKeys;
import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.admission.AdmissionOutcome;
import io.flashsale.stores.admission.Reservations;
import io.flashsale.stores.order.OrderRepository;
import io.flashsale.stores.sale.SaleArchive.Outcome;
import io.flashsale.stores.testing.StoreSnapshot;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class SaleArchiveIT extends StoresIntegrationTest {

    private static final Duration MARKER = Duration.ofHours(1);

    @Autowired
    SaleArchive archive;

    @Autowired
    SaleRepository sales;

    @Autowired
    Reservations reservations;

    private OrderRepository orders;
    private Sale sale;

    @BeforeEach
    void oneSaleOfThreeUnits() {
        orders = new OrderRepository(jdbc);
        sale = TestSales.open(3);
        sales.insertIfAbsent(sale);
        stock.load(sale);
    }

    @Test
    void archivesAnEndedSaleWhosePurchasesAreFinalLeavingOnlyAMarker() {
        paid("u1");
        expired("u2");
        end();

        Outcome outcome = archive.archiveIfFinal(sale.id(), MARKER);

        SaleKeys sk = keys.sale(sale.id());
        assertThat(outcome).isEqualTo(Outcome.ARCHIVED);
        assertThat(redis.hasKey(sk.stock())).isFalse();
        assertThat(redis.hasKey(sk.buyers())).isFalse();
        assertThat(redis.hasKey(sk.holds())).isFalse();
        assertThat(redis.hasKey(sk.admissions())).isFalse();
        assertThat(redis.opsForHash().keys(sk.meta())).containsExactlyInAnyOrder("opens", "closes", "archived");
        assertThat(redis.getExpire(sk.meta())).isBetween(MARKER.toSeconds() - 60, MARKER.toSeconds());
        assertThat(redis.opsForSet().isMember(keys.sales(), sale.id())).isFalse();
        assertThat(redis.opsForZSet().score(keys.relaySales(), sale.id())).isNull();
        assertThat(sales.find(sale.id()).orElseThrow().redisArchived()).isTrue();
        assertThat(sales.counts(sale.id())).isEqualTo(new SaleCounts(0, 1, 1, 0));
    }

    @Test
    void answersALateBuyerOfAnArchivedSaleNotOpenAndNeverLoadsItAgain() {
        paid("u1");
        end();
        archive.archiveIfFinal(sale.id(), MARKER);

        Admission late = admit(gate, sale.id(), "late", "k-late");
        boolean loaded = stock.load(sales.find(sale.id()).orElseThrow());

        assertThat(late.outcome()).isEqualTo(AdmissionOutcome.NOT_OPEN);
        assertThat(loaded).isFalse();
        assertThat(redis.hasKey(keys.sale(sale.id()).stock())).isFalse();
        assertThat(redis.hasKey(keys.sale(sale.id()).admissions())).isFalse();
    }

    @Test
    void leavesTheSaleAloneWhileAnOrderAwaitsPayment() {
        paid("u1");
        pending("u2");
        end();
        StoreSnapshot before = probe.snapshot(sale.id());

        Outcome outcome = archive.archiveIfFinal(sale.id(), MARKER);

        assertThat(outcome).isEqualTo(Outcome.PENDING_PAYMENT);
        assertThat(probe.snapshot(sale.id())).isEqualTo(before);
        assertThat(sales.find(sale.id()).orElseThrow().redisArchived()).isFalse();
    }

    @Test
    void leavesTheSaleAloneWhileAnAdmissionWaitsForTheRelay() {
        paid("u1");
        admit(gate, sale.id(), "u2", "k-u2");
        end();
        StoreSnapshot before = probe.snapshot(sale.id());

        Outcome outcome = archive.archiveIfFinal(sale.id(), MARKER);

        assertThat(outcome).isEqualTo(Outcome.ADMISSIONS_IN_FLIGHT);
        assertThat(probe.snapshot(sale.id())).isEqualTo(before);
        assertThat(sales.find(sale.id()).orElseThrow().redisArchived()).isFalse();
    }

    @Test
    void leavesTheSaleAloneWhileARelayedPurchaseHasNoOrderYet() {
        paid("u1");
        relayed("u2");
        end();
        StoreSnapshot before = probe.snapshot(sale.id());

        Outcome outcome = archive.archiveIfFinal(sale.id(), MARKER);

        assertThat(outcome).isEqualTo(Outcome.HOLDS_NOT_FINAL);
        assertThat(probe.snapshot(sale.id())).isEqualTo(before);
        assertThat(sales.find(sale.id()).orElseThrow().redisArchived()).isFalse();
    }

    @Test
    void leavesTheSaleAloneWhenAPaidOrderLostItsHoldAndAnotherPurchaseIsInFlight() {
        paid("u1");
        String inFlight = relayed("u2");
        redis.opsForHash().put(keys.sale(sale.id()).holds(), PurchaseRequest.purchaseId(sale.id(), "u1"), "RELEASED");
        end();
        StoreSnapshot before = probe.snapshot(sale.id());

        Outcome outcome = archive.archiveIfFinal(sale.id(), MARKER);

        assertThat(outcome).isEqualTo(Outcome.HOLDS_NOT_FINAL);
        assertThat(probe.snapshot(sale.id())).isEqualTo(before);
        assertThat(redis.opsForHash().get(keys.sale(sale.id()).holds(), inFlight))
                .isEqualTo("HELD");
    }

    @Test
    void recordsInMySqlAnArchiveCutShortAfterRedisAndKeepsTheFirstTime() {
        paid("u1");
        end();
        archive.archiveIfFinal(sale.id(), MARKER);
        jdbc.sql("UPDATE sales SET redis_archived_at = NULL WHERE id = ?")
                .param(sale.id())
                .update();

        Outcome again = archive.archiveIfFinal(sale.id(), MARKER);
        Instant recorded = sales.find(sale.id()).orElseThrow().redisArchivedAt();
        Outcome thirdTime = archive.archiveIfFinal(sale.id(), MARKER);

        assertThat(again).isEqualTo(Outcome.ARCHIVED);
        assertThat(recorded).isNotNull();
        assertThat(thirdTime).isEqualTo(Outcome.ARCHIVED);
        assertThat(sales.find(sale.id()).orElseThrow().redisArchivedAt()).isEqualTo(recorded);
    }

    @Test
    void listsEndedSalesThatStillLiveInRedisOnly() {
        Sale running = TestSales.open(1);
        sales.insertIfAbsent(running);
        Sale archived = TestSales.closed(1);
        sales.insertIfAbsent(archived);
        sales.markRedisArchived(archived.id());
        end();

        assertThat(sales.endedInRedis(Instant.now(), 10_000))
                .contains(sale.id())
                .doesNotContain(running.id(), archived.id());
        assertThat(sales.endedInRedis(Instant.now().minusSeconds(3600), 10_000)).doesNotContain(sale.id());
    }

    /** Admitted, relayed (entry gone from the stream), no order yet. */
    private String relayed(String user) {
        Admission admission = admit(gate, sale.id(), user, "k-" + user);
        gate.forget(sale.id(), admission.entryId());
        return admission.purchaseId();
    }

    private long pending(String user) {
        String purchaseId = relayed(user);
        orders.takeUnit(sale.id());
        return orders.insertPending(new NewOrder(purchaseId, sale.id(), user, null, 60));
    }

    private void paid(String user) {
        orders.markPaid(pending(user), "pay-" + sale.id() + "-" + user);
    }

    private void expired(String user) {
        orders.endPending(pending(user), PurchaseStatus.EXPIRED);
        orders.returnUnit(sale.id());
        reservations.release(sale.id(), PurchaseRequest.purchaseId(sale.id(), user));
    }

    private void end() {
        probe.endSale(sale.id());
    }
}
