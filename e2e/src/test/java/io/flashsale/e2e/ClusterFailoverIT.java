package io.flashsale.e2e;

import static io.flashsale.stores.audit.AuditVerdict.FAIL;
import static io.flashsale.stores.audit.AuditVerdict.PASS;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.e2e.FlashSaleSystem.PurchaseRun;
import io.flashsale.launcher.redis.RedisNode;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.Violation;
import io.flashsale.stores.testing.StoreProbe;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fault matrix, Redis Cluster: the master serving a running sale's slot is SIGKILLed while buyers
 * are in flight, after its replica fell behind, and the replica is promoted without the admissions,
 * holds and release the master had acknowledged. The api and a worker run as processes on the
 * cluster ({@code REDIS_CLUSTER_NODES}). MySQL, the authority, never sells a unit twice; the audit
 * reports what Redis lost; the repair restores it; every purchase ends exactly once.
 *
 * <p>20 units. Before the fault 8 buyers are admitted and 4 of them pay. While the replica lags
 * (stopped, its replication link dropped by the master): 4 more buyers are admitted and get their
 * orders, and one of the first 8 cancels; none of it reaches the replica. 40 buyers then arrive 50
 * ms apart; the master is killed once 5 of them were answered. MySQL had 9 units left for them:
 * exactly 9 get an order, every other admission Redis granted from its stale stock ends REJECTED.
 */
@OnRedisCluster
class ClusterFailoverIT extends RunningSystemTest {

    private static final int UNITS = 20;
    private static final int FLOOD = 40;
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    static SystemStores storeConnections;
    static StoreProbe stores;

    @BeforeAll
    static void connectStores() {
        storeConnections = new SystemStores(system.environment());
        stores = storeConnections.probe();
    }

    @AfterAll
    static void closeStores() {
        if (storeConnections != null) {
            storeConnections.close();
        }
    }

    @Test
    void killingTheMasterOfARunningSaleNeverOversellsAndTheRepairRestoresWhatRedisLost() throws Exception {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, Duration.ofMinutes(10))
                        .status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);
        String stockKey = keys().sale(saleId).stock();
        RedisNode master = cluster.masterOf(stockKey);
        List<String> early = admitted(purchases, "early", 8);
        purchases.pay(early.subList(0, 4));

        RedisNode replica = cluster.cutReplication(master);
        List<String> lagging = admitted(purchases, "lagging", 4);
        purchases.cancel(early.subList(4, 5));
        Flood flood = Flood.start(api, saleId, Purchases.users("flood", FLOOD), Duration.ofMillis(50), PATIENCE);
        flood.awaitAnswers(5, PATIENCE);
        long killed = System.nanoTime();
        master.kill();
        replica.signal("CONT");
        cluster.awaitPromoted(replica, stockKey, PATIENCE);
        Duration promoted = Duration.ofNanos(System.nanoTime() - killed);
        Map<String, Flood.Answer> answers = flood.finish(PATIENCE);
        Duration answered = Duration.ofNanos(System.nanoTime() - killed);

        assertThat(answers).hasSize(FLOOD);
        assertThat(flood.failedAttempts()).doesNotContainKey(500);
        List<String> floodIds = purchases.purchaseIds(Purchases.users("flood", FLOOD));
        awaitSettled(purchases, floodIds);
        List<String> floodOrders = withOrder(saleId, floodIds);
        assertThat(floodOrders).hasSize(9);
        assertThat(stores.available(saleId)).isZero();
        System.out.printf(
                "cluster failover: killed %s, %s promoted after %d ms, every buyer answered after %d ms; %s%n",
                master, replica, promoted.toMillis(), answered.toMillis(), outcomes(saleId, answers, flood));

        purchases.pay(lagging);
        assertDriftReported(saleId, early.get(4), lagging);
        ApiClient.Response repaired = repair(saleId);
        assertThat(texts(repaired, "holdsRestored")).containsAll(lagging);
        assertThat(texts(repaired, "holdsReleased")).contains(early.get(4));
        assertThat(repaired.body().path("stockAfter").asInt()).isZero();
        assertThat(repaired.body().path("audit").path("result").asText()).isEqualTo("PASS");

        List<String> unpaid = Stream.concat(early.subList(5, 8).stream(), floodOrders.stream())
                .toList();
        purchases.cancel(unpaid);
        assertFinalCounts(saleId, early, lagging, floodOrders);
    }

    /** Buyers {@code prefix0..n-1} race for a unit each; every one admitted and awaiting payment. */
    private static List<String> admitted(Purchases purchases, String prefix, int buyers) throws InterruptedException {
        List<String> users = Purchases.users(prefix, buyers);
        assertThat(purchases.race(users)).extracting(ApiClient.Response::status).containsOnly(202);
        List<String> ids = purchases.purchaseIds(users);
        purchases.awaitStatus(ids, "PENDING_PAYMENT", PATIENCE);
        return ids;
    }

    /** Every flood purchase Temporal knows has its order or ended; none is still being confirmed. */
    private static void awaitSettled(Purchases purchases, List<String> floodIds) {
        eventually("flood purchases settled")
                .until(() -> purchases.statuses(floodIds), statuses -> !statuses.containsKey("RESERVED"));
    }

    /** Audit FAIL: orders whose holds the promoted replica never had, a cancelled order still HELD; never I1, I2, I5. */
    private static void assertDriftReported(String saleId, String cancelled, List<String> lagging) {
        assertThat(stores.holds(saleId)).doesNotContainKeys(lagging.toArray(String[]::new));
        assertThat(stores.holds(saleId)).containsEntry(cancelled, "HELD");
        AuditReport drift = Audits.report(api.audit(TestTokens.admin(), saleId));
        assertThat(drift.result()).isEqualTo(FAIL);
        assertThat(drift.violations()).extracting(Violation::invariant).containsOnly("I3", "I4");
        assertThat(drift.violations())
                .extracting(Violation::detail)
                .anyMatch(d -> d.startsWith("orders PENDING_PAYMENT or PAID without a HELD hold in Redis"))
                .anyMatch(d -> d.startsWith("HELD holds of purchases that ended unsold"));
        assertThat(drift.mysqlAvailable()).isZero();
        assertThat(drift.pendingPayment() + drift.paid()).isEqualTo(UNITS);
    }

    /** The repair refuses while admissions wait for the relay; asked again until it runs. */
    private static ApiClient.Response repair(String saleId) {
        return eventually("repair ran")
                .until(() -> api.repair(TestTokens.admin(), saleId), repair -> repair.status() == 200);
    }

    /**
     * 8 PAID (4 before the fault, the 4 lagging), 13 CANCELLED (one during the lag, 3 more of the
     * first 8, the 9 of the flood): 12 units back in MySQL and in Redis, each once. Every run of every
     * purchase ended; a purchase that ended otherwise than REJECTED did so in exactly one run.
     */
    private static void assertFinalCounts(
            String saleId, List<String> early, List<String> lagging, List<String> floodOrders) {
        AuditReport audit = Audits.report(api.audit(TestTokens.admin(), saleId));
        assertThat(audit)
                .usingRecursiveComparison()
                .ignoringFields("buyers")
                .isEqualTo(new AuditReport(saleId, UNITS, 12, 0, 8, 0, 13, 12L, 8, 13, 0, 0, 0, List.of(), PASS, null));
        assertThat(audit.buyers()).isGreaterThanOrEqualTo(21);
        List<PurchaseRun> runs = eventually("every run closed")
                .until(() -> system.purchaseRuns(saleId), listed -> listed.stream()
                        .noneMatch(PurchaseRun::running));
        Map<String, List<String>> sold = runs.stream()
                .filter(run -> !"REJECTED".equals(run.status()))
                .collect(Collectors.groupingBy(
                        PurchaseRun::purchaseId, Collectors.mapping(PurchaseRun::status, Collectors.toList())));
        List<String> paid = new ArrayList<>(early.subList(0, 4));
        paid.addAll(lagging);
        assertThat(sold).hasSize(21).allSatisfy((id, statuses) -> assertThat(statuses)
                .hasSize(1));
        assertThat(sold.entrySet().stream()
                        .filter(e -> e.getValue().contains("PAID"))
                        .map(Map.Entry::getKey))
                .containsExactlyInAnyOrderElementsOf(paid);
        assertThat(stores.orders(saleId)).hasSize(21);
        assertThat(floodOrders).allSatisfy(id -> assertThat(sold.get(id)).containsExactly("CANCELLED"));
    }

    private static List<String> withOrder(String saleId, List<String> purchaseIds) {
        List<String> orders = stores.orders(saleId).stream()
                .map(o -> o.substring(0, o.indexOf(' ')))
                .toList();
        return purchaseIds.stream().filter(orders::contains).toList();
    }

    private static List<String> texts(ApiClient.Response response, String field) {
        List<String> texts = new ArrayList<>();
        response.body().path(field).forEach(node -> texts.add(node.asText()));
        return texts;
    }

    private static String outcomes(String saleId, Map<String, Flood.Answer> answers, Flood flood) {
        return "flood answers %s, failed attempts by status %s, orders %d"
                .formatted(
                        answers.values().stream()
                                .collect(Collectors.groupingBy(
                                        a -> a.status() + " " + a.problemType(), TreeMap::new, Collectors.counting())),
                        flood.failedAttempts(),
                        stores.orders(saleId).size());
    }

    private static RedisKeyProperties keys() {
        return new RedisKeyProperties(system.environment().get("FLASHSALE_REDIS_PREFIX"));
    }

    /**
     * Awaits {@code what}, looking at once and then every 200 ms for up to {@link #PATIENCE}; a
     * {@link RuntimeException} while looking means not yet (one at the last look is the timeout's cause).
     */
    private static ConditionFactory eventually(String what) {
        return Waits.polling(Duration.ofMillis(200), what)
                .atMost(PATIENCE)
                .ignoreExceptionsInstanceOf(RuntimeException.class);
    }
}
