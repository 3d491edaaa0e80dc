package io.flashsale.e2e;

import static io.flashsale.stores.audit.AuditVerdict.PASS;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.launcher.TemporalService;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.testing.TestSales;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The production-like Temporal cluster ({@link OnTemporalCluster}) as operators see it, then the
 * fault matrix on it: a node of the cluster dies mid-sale. The frontend first, with every host up; then a history host, and its
 * shards (with the purchases, timers and Updates they hold) move to the other one.
 */
@OnTemporalCluster
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TemporalClusterIT extends RunningSystemTest {

    private static final String FRONTEND = "temporal-frontend";
    private static final int UNITS = 12;
    private static final int PAYING = 4;
    /**
     * From the order to the deadline: the kill comes right after the orders, so the unpaid
     * purchases' timers come due after their shards moved, on the surviving host.
     */
    private static final Duration PAY_TIMEOUT = Duration.ofSeconds(40);
    /** Payments sent while their host dies: answered by the new owner within this. */
    private static final Duration PAID_WITHIN = Duration.ofSeconds(90);

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    /**
     * The cluster's Web UI server lists a sale's purchases by SaleId and shows a paid one, as the
     * dev server's does ({@link WebUiIT}), from SQL visibility on PostgreSQL.
     */
    @Test
    @Order(0)
    void operatorsFindPurchasesInTheClustersWebUi() throws Exception {
        WebUiIT.operatorsFindPurchasesBySaleAndStatus(api, system.temporalWebUi());
    }

    /**
     * The frontend SIGKILLed under load and started again: admissions keep being answered (Redis
     * alone), starts resume once it is back, and every purchase ends exactly once.
     */
    @Test
    @Order(1)
    void purchasesSurviveTheFrontendKilledMidSaleAndFinishExactlyOnce() throws Exception {
        TemporalService cluster = system.cluster();
        TemporalRestart.sellThrough(api, system, new TemporalRestart.Outage() {
            @Override
            public void kill() throws Exception {
                long killedPid = cluster.process(FRONTEND).pid();
                cluster.kill(FRONTEND);
                assertThat(ProcessHandle.of(killedPid))
                        .as("the frontend process is gone")
                        .isEmpty();
            }

            @Override
            public void restart() throws Exception {
                cluster.restart(FRONTEND);
            }
        });
    }

    /**
     * A history host SIGKILLed with purchases waiting for payment on it, payments to them in flight
     * and their deadlines still to come: its shards move to the other host (the cluster's membership
     * and the shards' owners say so), the payments are answered PAID, the timers fire there, every
     * unit comes back once.
     */
    @Test
    @Order(2)
    void purchasesSurviveAHistoryHostKilledMidSaleAndFinishExactlyOnce() throws Exception {
        TemporalService cluster = system.cluster();
        ClusterView view = new ClusterView(cluster);
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, PAY_TIMEOUT)
                        .status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);
        List<String> bought = TemporalRestart.admitted(purchases.race(Purchases.users("buyer", UNITS)));
        assertThat(bought).hasSize(UNITS);
        purchases.awaitStatus(bought, "PENDING_PAYMENT", PATIENCE);

        // both hosts own shards; the victim is the one holding the most of these purchases
        assertThat(view.historyMembers())
                .containsExactlyInAnyOrder(view.address("history-1"), view.address("history-2"));
        assertThat(new HashSet<>(view.shardOwners().values()))
                .containsExactlyInAnyOrder(view.address("history-1"), view.address("history-2"));
        Map<String, String> hostOf = new LinkedHashMap<>();
        for (String id : bought) {
            hostOf.put(id, view.historyHostOf(id));
        }
        String victim = List.of("history-1", "history-2").stream()
                .max(Comparator.comparingLong(node -> hostOf.values().stream()
                        .filter(view.address(node)::equals)
                        .count()))
                .orElseThrow();
        String survivor = victim.equals("history-1") ? "history-2" : "history-1";
        List<String> onVictim = bought.stream()
                .filter(id -> hostOf.get(id).equals(view.address(victim)))
                .toList();
        assertThat(onVictim).as("purchases held by %s", victim).isNotEmpty();

        // payments in flight as the host dies: those on the victim first
        List<String> paying = new ArrayList<>(onVictim.subList(0, Math.min(PAYING - 1, onVictim.size())));
        bought.stream()
                .filter(id -> !paying.contains(id))
                .limit(PAYING - paying.size())
                .forEach(paying::add);
        CompletableFuture<Void> payments = CompletableFuture.runAsync(() -> {
            try {
                purchases.payAsOrdered(paying, PATIENCE, PAID_WITHIN);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        long killedPid = cluster.process("temporal-" + victim).pid();
        cluster.kill("temporal-" + victim);
        assertThat(ProcessHandle.of(killedPid)).as("the history host is gone").isEmpty();

        payments.get(PAID_WITHIN.plus(PATIENCE).toSeconds(), TimeUnit.SECONDS);
        List<String> unpaid = bought.stream().filter(id -> !paying.contains(id)).toList();
        purchases.awaitStatus(unpaid, "EXPIRED", PAY_TIMEOUT.plus(PATIENCE));

        // the cluster's own view: one history host left, owning every shard and these purchases
        assertThat(view.historyMembers()).containsExactly(view.address(survivor));
        assertThat(new HashSet<>(view.shardOwners().values())).containsExactly(view.address(survivor));
        for (String id : onVictim) {
            assertThat(view.historyHostOf(id)).as(id).isEqualTo(view.address(survivor));
        }
        assertThat(purchases.statuses(bought))
                .isEqualTo(Map.of("PAID", (long) PAYING, "EXPIRED", (long) UNITS - PAYING));
        int expired = UNITS - PAYING;
        Audits.assertAudit(
                api,
                new AuditReport(
                        saleId,
                        UNITS,
                        expired,
                        0,
                        PAYING,
                        expired,
                        0,
                        (long) expired,
                        PAYING,
                        expired,
                        UNITS,
                        0,
                        0,
                        List.of(),
                        PASS,
                        null));
    }
}
