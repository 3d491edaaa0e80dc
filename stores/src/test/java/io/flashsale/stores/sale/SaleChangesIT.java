package io.flashsale.stores.sale;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.flashsale.stores.LuaScripts;
import io.flashsale.stores.admission.AdmissionOutcome;
import io.flashsale.stores.admission.RelaySales;
import io.flashsale.stores.sale.SaleChanges.Outcome;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The sale changes on the real MySQL and Redis: each store changes as the order of steps says, once
 * per key, and every guard (a Lua check, a conditional UPDATE) refuses what it is there to refuse.
 */
class SaleChangesIT extends StoresIntegrationTest {

    private static final String OPS = "ops";

    @Autowired
    SaleChanges changes;

    @Autowired
    SaleRepository sales;

    @Autowired
    SaleChangeLog log;

    @Autowired
    RelaySales relaySales;

    @Autowired
    SaleArchive archive;

    @Test
    void restockGrowsTotalAvailableAndRedisStockOncePerKey() {
        Sale sale = created(TestSales.open(3));

        Outcome first = changes.restock(sale.id(), "more-1", 4, OPS);
        Outcome again = changes.restock(sale.id(), "more-1", 4, OPS);

        assertThat(first).isEqualTo(Outcome.CHANGED);
        assertThat(again).isEqualTo(Outcome.UNCHANGED);
        assertUnits(sale.id(), 7, 7, 7);
        assertThat(log.of(sale.id()))
                .extracting(SaleChange::kind, SaleChange::key, SaleChange::unitsAsked, SaleChange::units)
                .containsExactly(tuple(SaleChangeKind.RESTOCK, "more-1", 4, 4));
        assertThat(log.of(sale.id()).get(0).changedBy()).isEqualTo(OPS);
    }

    @Test
    void restockRepeatedAfterMySqlAloneWasWrittenAddsTheUnitsToRedisOnce() {
        Sale sale = created(TestSales.open(3));
        changes.restock(sale.id(), "more-1", 2, OPS);
        // the first attempt's Redis step is undone by hand: as if the api had stopped after MySQL
        redis.opsForValue().set(keys.sale(sale.id()).stock(), "3");
        redis.opsForHash().put(keys.sale(sale.id()).meta(), "total", "3");
        redis.delete(keys.sale(sale.id()).changes());

        assertThat(changes.restock(sale.id(), "more-1", 2, OPS)).isEqualTo(Outcome.UNCHANGED);
        assertThat(changes.restock(sale.id(), "more-1", 2, OPS)).isEqualTo(Outcome.UNCHANGED);

        assertUnits(sale.id(), 5, 5, 5);
    }

    @Test
    void refusesTheSameKeyForAnotherChange() {
        Sale sale = created(TestSales.open(3));
        changes.restock(sale.id(), "k", 2, OPS);

        assertThat(changes.restock(sale.id(), "k", 3, OPS)).isEqualTo(Outcome.KEY_CONFLICT);
        assertThat(changes.withdraw(sale.id(), "k", 2, OPS)).isEqualTo(Outcome.KEY_CONFLICT);

        assertUnits(sale.id(), 5, 5, 5);
    }

    @Test
    void refusesToRestockASaleThatEnded() {
        Sale sale = created(TestSales.closed(3));

        assertThat(changes.restock(sale.id(), "more", 2, OPS)).isEqualTo(Outcome.CLOSED);

        assertUnits(sale.id(), 3, 3, 3);
        assertThat(log.of(sale.id())).isEmpty();
    }

    @Test
    void restockOfASaleRedisLostLeavesItToBeLoadedAgainWithTheUnits() {
        Sale sale = created(TestSales.open(3));
        loseSale(sale.id());

        assertThat(changes.restock(sale.id(), "more", 2, OPS)).isEqualTo(Outcome.STORES_APART);

        assertThat(redis.hasKey(keys.sale(sale.id()).meta())).isFalse();
        assertThat(stock.load(sales.find(sale.id()).orElseThrow())).isTrue();
        assertUnits(sale.id(), 5, 5, 5);
    }

    @Test
    void refusesAWithdrawalFromASaleRedisLostAndLeavesMySqlAsItWas() {
        Sale sale = created(TestSales.open(3));
        loseSale(sale.id());

        assertThat(changes.withdraw(sale.id(), "less", 1, OPS)).isEqualTo(Outcome.STORES_APART);

        assertThat(sales.find(sale.id()).orElseThrow())
                .extracting(Sale::total, Sale::available)
                .containsExactly(3, 3);
        assertThat(redis.hasKey(keys.sale(sale.id()).stock())).isFalse();
    }

    @Test
    void refusesAWithdrawalFromASaleArchivedInRedis() {
        Sale sale = created(TestSales.closed(2));
        assertThat(archive.archiveIfFinal(sale.id(), Duration.ofMinutes(1))).isEqualTo(SaleArchive.Outcome.ARCHIVED);

        assertThat(changes.withdraw(sale.id(), "less", 1, OPS)).isEqualTo(Outcome.ARCHIVED);

        assertThat(sales.find(sale.id()).orElseThrow().total()).isEqualTo(2);
    }

    @Test
    void withdrawalTakesOnlyTheUnitsNoBuyerHoldsNeverBelowZero() {
        Sale sale = created(TestSales.open(5));
        for (String buyer : List.of("a", "b", "c")) {
            admit(gate, sale.id(), buyer, "k");
        }

        assertThat(changes.withdraw(sale.id(), "less", 4, OPS)).isEqualTo(Outcome.CHANGED);

        assertThat(stock.stock(sale.id())).hasValue(0);
        assertThat(probe.heldCount(sale.id())).isEqualTo(3);
        assertThat(sales.find(sale.id()).orElseThrow())
                .extracting(Sale::total, Sale::available)
                .containsExactly(3, 3);
        assertThat(meta(sale.id(), "total")).isEqualTo("3");
        assertThat(log.of(sale.id()))
                .extracting(SaleChange::kind, SaleChange::unitsAsked, SaleChange::units)
                .containsExactly(tuple(SaleChangeKind.WITHDRAW, 4, -2));
    }

    @Test
    void withdrawalRepeatedAfterRedisAloneWasWrittenTakesTheUnitsOnce() {
        Sale sale = created(TestSales.open(5));
        // the first attempt stopped after its Redis step
        redisChanges().withdraw(sale.id(), "less", 2);

        assertThat(changes.withdraw(sale.id(), "less", 2, OPS)).isEqualTo(Outcome.CHANGED);
        assertThat(changes.withdraw(sale.id(), "less", 2, OPS)).isEqualTo(Outcome.UNCHANGED);

        assertUnits(sale.id(), 3, 3, 3);
    }

    @Test
    void refusesAWithdrawalMySqlCannotFollowAndLeavesMySqlAsItWas() {
        Sale sale = created(TestSales.open(5));
        // drift: MySQL has fewer units than Redis offers
        jdbc.sql("UPDATE sales SET available = 1 WHERE id = ?").param(sale.id()).update();

        assertThat(changes.withdraw(sale.id(), "less", 3, OPS)).isEqualTo(Outcome.STORES_APART);

        assertThat(sales.find(sale.id()).orElseThrow())
                .extracting(Sale::total, Sale::available)
                .containsExactly(5, 1);
        assertThat(log.of(sale.id())).isEmpty();
    }

    @Test
    void closeStopsAdmissionsAtOnceAndIsRecordedOnce() {
        Sale sale = created(TestSales.open(5));

        assertThat(changes.close(sale.id(), OPS)).isEqualTo(Outcome.CHANGED);
        String closes = meta(sale.id(), "closes");
        assertThat(admit(gate, sale.id(), "late", "k").outcome()).isEqualTo(AdmissionOutcome.NOT_OPEN);
        assertThat(changes.close(sale.id(), OPS)).isEqualTo(Outcome.UNCHANGED);

        assertThat(meta(sale.id(), "closes")).isEqualTo(closes);
        Instant ends = sales.find(sale.id()).orElseThrow().endsAt();
        assertThat(ends).isEqualTo(Instant.ofEpochMilli(Long.parseLong(closes)));
        assertThat(log.of(sale.id()))
                .extracting(SaleChange::kind, SaleChange::endsAt, SaleChange::changedBy)
                .containsExactly(tuple(SaleChangeKind.CLOSE, ends, OPS));
        assertThat(relaySales.all()).contains(new RelaySales.RelaySale(sale.id(), ends));
    }

    @Test
    void closesASaleWhoseRestockWasKeyedClose() {
        Sale sale = created(TestSales.open(2));
        assertThat(changes.restock(sale.id(), "close", 1, OPS)).isEqualTo(Outcome.CHANGED);

        assertThat(changes.close(sale.id(), OPS)).isEqualTo(Outcome.CHANGED);

        assertThat(sales.find(sale.id()).orElseThrow().endsAt()).isNotNull();
        assertThat(log.of(sale.id()))
                .extracting(SaleChange::kind, SaleChange::key)
                .containsExactly(
                        tuple(SaleChangeKind.RESTOCK, "close"), tuple(SaleChangeKind.CLOSE, SaleChange.CLOSE_KEY));
    }

    @Test
    void closingASaleRedisLostClosesItInMySqlForTheNextLoad() {
        Sale sale = created(TestSales.open(3));
        loseSale(sale.id());

        assertThat(changes.close(sale.id(), OPS)).isEqualTo(Outcome.CHANGED);

        assertThat(redis.hasKey(keys.sale(sale.id()).meta())).isFalse();
        Sale closed = sales.find(sale.id()).orElseThrow();
        assertThat(stock.load(closed)).isTrue();
        assertThat(meta(sale.id(), "closes"))
                .isEqualTo(Long.toString(closed.endsAt().toEpochMilli()));
        assertThat(admit(gate, sale.id(), "late", "k").outcome()).isEqualTo(AdmissionOutcome.NOT_OPEN);
    }

    @Test
    void closingASaleThatEndedKeepsItsEnd() {
        Sale sale = created(TestSales.closed(2));
        String closes = meta(sale.id(), "closes");

        assertThat(changes.close(sale.id(), OPS)).isEqualTo(Outcome.UNCHANGED);

        assertThat(meta(sale.id(), "closes")).isEqualTo(closes);
        assertThat(sales.find(sale.id()).orElseThrow().endsAt())
                .isEqualTo(sale.endsAt().truncatedTo(ChronoUnit.MILLIS));
        assertThat(log.of(sale.id())).isEmpty();
    }

    @Test
    void moveSetsTheWindowInBothStores() {
        Sale sale = created(TestSales.notYetOpen(2));
        Instant starts = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);
        Instant ends = starts.plus(Duration.ofHours(1));

        assertThat(changes.move(sale.id(), starts, ends, OPS)).isEqualTo(Outcome.CHANGED);
        assertThat(changes.move(sale.id(), starts, ends, OPS)).isEqualTo(Outcome.UNCHANGED);

        Sale moved = sales.find(sale.id()).orElseThrow();
        assertThat(moved.startsAt()).isEqualTo(starts);
        assertThat(moved.endsAt()).isEqualTo(ends);
        assertThat(meta(sale.id(), "opens")).isEqualTo(Long.toString(starts.toEpochMilli()));
        assertThat(meta(sale.id(), "closes")).isEqualTo(Long.toString(ends.toEpochMilli()));
        assertThat(log.of(sale.id())).hasSize(1);
        assertThat(relaySales.all()).contains(new RelaySales.RelaySale(sale.id(), ends));
    }

    @Test
    void movingASaleRedisLostMovesItInMySqlForTheNextLoad() {
        Sale sale = created(TestSales.notYetOpen(2));
        loseSale(sale.id());
        Instant ends = Instant.now().plus(Duration.ofHours(5)).truncatedTo(ChronoUnit.MILLIS);

        assertThat(changes.move(sale.id(), null, ends, OPS)).isEqualTo(Outcome.CHANGED);

        assertThat(redis.hasKey(keys.sale(sale.id()).meta())).isFalse();
        assertThat(stock.load(sales.find(sale.id()).orElseThrow())).isTrue();
        assertThat(meta(sale.id(), "closes")).isEqualTo(Long.toString(ends.toEpochMilli()));
    }

    @Test
    void refusesToMoveTheWindowIntoThePast() {
        Sale sale = created(TestSales.notYetOpen(2));
        Instant past = Instant.now().minus(Duration.ofMinutes(1));

        assertThat(changes.move(sale.id(), null, past, OPS)).isEqualTo(Outcome.IN_PAST);
        assertThat(changes.move(sale.id(), past, null, OPS)).isEqualTo(Outcome.IN_PAST);

        assertWindowUnchanged(sale);
    }

    @Test
    void refusesToMoveASaleMySqlHasClosed() {
        Sale sale = created(TestSales.open(2));
        jdbc.sql("UPDATE sales SET ends_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?")
                .param(sale.id())
                .update();

        Outcome moved = changes.move(sale.id(), null, Instant.now().plus(Duration.ofHours(1)), OPS);

        assertThat(moved).isEqualTo(Outcome.CLOSED);
        assertThat(meta(sale.id(), "closes")).isEmpty();
        assertThat(log.of(sale.id())).isEmpty();
    }

    @Test
    void refusesToMoveASaleRedisHasClosedAndRollsMySqlBack() {
        Sale sale = created(TestSales.open(2));
        String closed = Long.toString(Instant.now().minusSeconds(1).toEpochMilli());
        redis.opsForHash().put(keys.sale(sale.id()).meta(), "closes", closed);

        Outcome moved = changes.move(sale.id(), null, Instant.now().plus(Duration.ofHours(1)), OPS);

        assertThat(moved).isEqualTo(Outcome.CLOSED);
        assertThat(meta(sale.id(), "closes")).isEqualTo(closed);
        assertThat(sales.find(sale.id()).orElseThrow().endsAt()).isNull();
        assertThat(log.of(sale.id())).isEmpty();
    }

    @Test
    void answersNotFoundForAnUnknownSale() {
        String saleId = TestSales.newId();

        assertThat(changes.close(saleId, OPS)).isEqualTo(Outcome.NOT_FOUND);
        assertThat(changes.restock(saleId, "k", 1, OPS)).isEqualTo(Outcome.NOT_FOUND);
        assertThat(changes.withdraw(saleId, "k", 1, OPS)).isEqualTo(Outcome.NOT_FOUND);
        assertThat(changes.move(saleId, null, Instant.now().plusSeconds(60), OPS))
                .isEqualTo(Outcome.NOT_FOUND);
    }

    private Sale created(Sale sale) {
        sales.insertIfAbsent(sale);
        return loaded(sale);
    }

    private void assertUnits(String saleId, int total, int available, long redisStock) {
        assertThat(sales.find(saleId).orElseThrow())
                .extracting(Sale::total, Sale::available)
                .containsExactly(total, available);
        assertThat(stock.stock(saleId)).hasValue(redisStock);
        assertThat(meta(saleId, "total")).isEqualTo(Integer.toString(total));
    }

    private void assertWindowUnchanged(Sale sale) {
        Sale now = sales.find(sale.id()).orElseThrow();
        assertThat(now.startsAt()).isEqualTo(sale.startsAt().truncatedTo(ChronoUnit.MILLIS));
        assertThat(now.endsAt()).isEqualTo(sale.endsAt());
        assertThat(meta(sale.id(), "opens"))
                .isEqualTo(Long.toString(sale.startsAt().toEpochMilli()));
        assertThat(log.of(sale.id())).isEmpty();
    }

    private String meta(String saleId, String field) {
        Object value = redis.opsForHash().get(keys.sale(saleId).meta(), field);
        return value == null ? null : value.toString();
    }

    private RedisSaleChanges redisChanges() {
        return new RedisSaleChanges(
                redis,
                keys,
                new RedisSaleChanges.Scripts(
                        LuaScripts.load("close", Long.class),
                        LuaScripts.load("move", Long.class),
                        LuaScripts.load("restock", Long.class),
                        LuaScripts.load("withdraw", List.class)));
    }
}
