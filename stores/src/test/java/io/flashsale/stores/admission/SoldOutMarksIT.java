package io.flashsale.stores.admission;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.LuaScripts;
import io.flashsale.stores.SaleKeys;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleChanges;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * What the apis' sold-out marks rely on in Redis: sold_out_snapshot.lua lists every buyer of an
 * open sale without stock and nothing otherwise, and every script that can grow a sale's stock
 * announces it on the stock-returned channel (release, load, repair, restock).
 */
class SoldOutMarksIT extends StoresIntegrationTest {

    private static final String PING = "ping";

    @Autowired
    private Reservations reservations;

    @Autowired
    private SaleRepository sales;

    @Autowired
    private SaleChanges changes;

    private SoldOutSnapshots snapshots;
    private RedisMessageListenerContainer listener;
    private final BlockingQueue<String> announced = new LinkedBlockingQueue<>();

    @BeforeEach
    void listen() throws InterruptedException {
        snapshots = new SoldOutSnapshots(redis, keys, LuaScripts.load("sold_out_snapshot", List.class), 3);
        listener = new RedisMessageListenerContainer();
        listener.setConnectionFactory(redis.getConnectionFactory());
        listener.addMessageListener(
                (message, pattern) -> announced.add(new String(message.getBody(), StandardCharsets.UTF_8)),
                new ChannelTopic(keys.stockReturned()));
        listener.afterPropertiesSet();
        listener.start();
        // subscribed once a message of our own comes back
        String seen = null;
        for (int i = 0; i < 100 && !PING.equals(seen); i++) {
            redis.convertAndSend(keys.stockReturned(), PING);
            seen = announced.poll(100, TimeUnit.MILLISECONDS);
        }
        assertThat(seen).isEqualTo(PING);
        announced.clear();
    }

    @AfterEach
    void stopListening() throws Exception {
        listener.destroy();
    }

    /**
     * The next message on the channel about {@code sale}, or a ping; within 5 s, else null. Another
     * sale's announcement is skipped: on a cluster an earlier test's, published on another master,
     * can arrive after this test's subscription handshake.
     */
    private String announcement(Sale sale) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            String message = announced.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (message == null || message.equals(PING) || message.equals(sale.id())) {
                return message;
            }
        }
    }

    @Test
    void snapshotListsEveryBuyerOnceTheOpenSaleHasNoStockLeft() {
        Sale sale = loaded(TestSales.open(2));
        admit(gate, sale.id(), "alice", "k1");
        assertThat(snapshots.take(sale.id())).isEmpty();

        admit(gate, sale.id(), "bob", "k2");

        assertThat(snapshots.take(sale.id())).contains(new SoldOutMarks.Snapshot(Set.of("alice", "bob"), null));
    }

    @Test
    void snapshotSaysHowLongUntilTheSaleCloses() {
        java.time.Instant closes = java.time.Instant.now().plusSeconds(60);
        Sale sale = loaded(new Sale(
                TestSales.newId(),
                "closing",
                1,
                0,
                null,
                closes,
                Duration.ofSeconds(60),
                RateLimits.NONE,
                TestSales.PRICE));

        Optional<SoldOutMarks.Snapshot> seen = snapshots.take(sale.id());

        assertThat(seen).isPresent();
        assertThat(seen.get().buyers()).isEmpty();
        assertThat(seen.get().untilClose()).isBetween(Duration.ofSeconds(50), Duration.ofSeconds(60));
    }

    @Test
    void noSnapshotOfASaleThatIsNotOpenNotLoadedOrHasTooManyBuyers() {
        Sale closed = loaded(TestSales.closed(0));
        Sale later = loaded(TestSales.notYetOpen(0));
        Sale crowded = loaded(TestSales.open(4));
        for (String user : List.of("u1", "u2", "u3", "u4")) {
            admit(gate, crowded.id(), user, "k-" + user);
        }

        assertThat(snapshots.take(closed.id())).isEmpty();
        assertThat(snapshots.take(later.id())).isEmpty();
        assertThat(snapshots.take("never-loaded-" + TestSales.newId())).isEmpty();
        assertThat(snapshots.take(crowded.id())).isEmpty();
    }

    @Test
    void aReleasedUnitIsAnnouncedOnceAndAVoidedHoldNotAtAll() throws InterruptedException {
        Sale sale = loaded(TestSales.open(2));
        assertThat(announcement(sale)).isEqualTo(sale.id()); // its loading
        String alice = admit(gate, sale.id(), "alice", "k1").purchaseId();
        String bob = admit(gate, sale.id(), "bob", "k2").purchaseId();

        assertThat(reservations.release(sale.id(), alice)).isTrue();
        assertThat(reservations.release(sale.id(), alice)).isFalse();
        assertThat(reservations.voidHold(sale.id(), bob, "bob")).isTrue();

        assertThat(announcement(sale)).isEqualTo(sale.id());
        redis.convertAndSend(keys.stockReturned(), PING);
        assertThat(announcement(sale)).isEqualTo(PING);
    }

    @Test
    void loadingASaleAnnouncesItAndLoadingItAgainDoesNot() throws InterruptedException {
        Sale sale = loaded(TestSales.open(1));
        stock.load(sale);

        assertThat(announcement(sale)).isEqualTo(sale.id());
        redis.convertAndSend(keys.stockReturned(), PING);
        assertThat(announcement(sale)).isEqualTo(PING);
    }

    @Test
    void aRestockAnnouncesTheSaleOnceAndAWithdrawalNot() throws InterruptedException {
        Sale sale = TestSales.open(1);
        sales.insertIfAbsent(sale);
        loaded(sale);
        assertThat(announcement(sale)).isEqualTo(sale.id()); // its loading

        changes.restock(sale.id(), "more", 2, "ops");
        changes.restock(sale.id(), "more", 2, "ops");
        changes.withdraw(sale.id(), "less", 1, "ops");

        assertThat(announcement(sale)).isEqualTo(sale.id());
        redis.convertAndSend(keys.stockReturned(), PING);
        assertThat(announcement(sale)).isEqualTo(PING);
    }

    @Test
    void aRepairAnnouncesTheSale() throws InterruptedException {
        Sale sale = loaded(TestSales.open(1));
        assertThat(announcement(sale)).isEqualTo(sale.id()); // its loading
        admit(gate, sale.id(), "alice", "k1");
        redis.opsForStream().trim(keys.sale(sale.id()).admissions(), 0);
        SaleKeys sk = keys.sale(sale.id());

        // the order of alice was cancelled behind Redis' back: the repair releases her hold
        List<?> reply = redis.execute(
                LuaScripts.load("repair", List.class),
                List.of(sk.holds(), sk.stock(), sk.buyers(), sk.admissions(), sk.meta(), sk.changes()),
                "1",
                "1",
                keys.stockReturned(),
                sale.id(),
                "0",
                "1",
                PurchaseRequest.purchaseId(sale.id(), "alice"),
                "0");

        assertThat(reply).first().hasToString("OK");
        assertThat(stock.stock(sale.id())).hasValue(1);
        assertThat(announcement(sale)).isEqualTo(sale.id());
    }
}
