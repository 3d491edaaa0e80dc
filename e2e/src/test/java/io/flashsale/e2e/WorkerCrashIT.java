package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.bench.Api;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.testing.TestSales;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Fault matrix, worker killed: one sale's purchases meet a worker killed by SIGKILL (no shutdown
 * hook, no drain) at every step of the saga, one worker after the other. Each killed worker was
 * started with its activities of one type pausing after their work (the Lua script ran, the
 * transaction committed) and before Temporal hears of it, so the kill lands exactly there; the next
 * worker repeats the step, which must find the work done rather than do it again. The workers run
 * with sticky execution on, as in production, so each kill also leaves workflow tasks on a dead
 * worker's sticky queue, which the real Temporal server moves to a live worker.
 */
@OwnWorkers
class WorkerCrashIT extends RunningSystemTest {

    /** 10, or more in the soak profile ({@code ./mvnw -B verify -Psoak}). */
    private static final int UNITS = Integer.getInteger("flashsale.crash.units", 10);
    /** Two paid before the kill during the pay wait, two after; the rest expire. */
    private static final int PAID = 4;

    private static final int LOSERS = 2;
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(90);
    /** From createOrder (step 2) to the deadline: worker start-ups and four payments fit in. */
    private static final Duration PAY_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void purchasesSurviveAWorkerKilledAtEveryStepAndFinishExactlyOnce() throws Exception {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, PAY_TIMEOUT)
                        .status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);

        // 1. killed after confirmReservation: the holds are confirmed, Temporal does not know
        system.startWorkers(Map.of("confirming", FlashSaleSystem.pausingAfter("ConfirmReservation")));
        List<Api.Response> responses = purchases.race(Purchases.users("buyer", UNITS + LOSERS));
        List<String> winners = responses.stream()
                .filter(r -> r.status() == 202)
                .map(r -> r.body().path("purchaseId").asText())
                .toList();
        assertThat(winners).hasSize(UNITS);
        assertThat(responses.stream().filter(r -> r.status() == 409).map(Api.Response::problemType))
                .hasSize(LOSERS)
                .containsOnly("sold-out");
        awaitPaused("confirming", "ConfirmReservation", winners);
        Audits.assertAudit(
                api,
                new AuditReport(saleId, UNITS, UNITS, 0, 0, 0, 0, 0L, UNITS, 0, UNITS, 0, UNITS, List.of(), "PASS"));
        system.killWorker("confirming");

        // 2. killed inside createOrder after the commit: the orders exist, Temporal does not know
        system.startWorkers(Map.of("ordering", FlashSaleSystem.pausingAfter("CreateOrder")));
        awaitPaused("ordering", "CreateOrder", winners);
        Audits.assertAudit(
                api,
                new AuditReport(saleId, UNITS, 0, UNITS, 0, 0, 0, 0L, UNITS, 0, UNITS, 0, UNITS, List.of(), "PASS"));
        system.killWorker("ordering");

        // 3. killed during the pay wait, after two payments; "compensating", started with it (its
        // start-up must not eat into the pay timeout), takes the next two
        system.startWorkers(
                Map.of("waiting", Map.of(), "compensating", FlashSaleSystem.pausingAfter("ReleaseReservation")));
        purchases.awaitStatus(winners, "PENDING_PAYMENT", STEP_TIMEOUT);
        purchases.pay(winners.subList(0, PAID / 2));
        system.killWorker("waiting");
        List<String> payLater = winners.subList(PAID / 2, PAID);
        assertThat(Instant.now())
                .as("still time to pay (worker start-ups took most of the %s pay timeout)", PAY_TIMEOUT)
                .isBefore(purchases.firstDeadline(payLater).minusSeconds(5));
        purchases.pay(payLater);

        // 4. killed during compensation: the deadline passed, the units are back in Redis (the
        // orders EXPIRED before that), Temporal does not know
        List<String> unpaid = winners.subList(PAID, UNITS);
        awaitPaused("compensating", "ReleaseReservation", unpaid);
        // (the audit counts running workflows of HELD holds and pending orders: none left here)
        int expired = UNITS - PAID;
        AuditReport settled = new AuditReport(
                saleId,
                UNITS,
                expired,
                0,
                PAID,
                expired,
                0,
                (long) expired,
                PAID,
                expired,
                UNITS,
                0,
                0,
                List.of(),
                "PASS");
        Audits.assertAudit(api, settled);
        system.killWorker("compensating");

        // the last worker repeats the releases: every unit came back once already, so nothing moves
        system.startWorker("finishing");
        purchases.awaitStatus(unpaid, "EXPIRED", STEP_TIMEOUT);
        assertThat(purchases.statuses(winners)).isEqualTo(Map.of("PAID", (long) PAID, "EXPIRED", (long) expired));
        Audits.assertAudit(api, settled);
        for (String id : winners) {
            java.nio.file.Files.writeString(
                    java.nio.file.Path.of("target", "hist-" + id + ".json"),
                    system.history(id).toJson(true));
        }
    }

    /** Waits until the worker paused exactly these purchases after the activity, no more, no fewer. */
    private static void awaitPaused(String worker, String activityType, List<String> purchaseIds) throws Exception {
        Set<String> expected = new TreeSet<>(purchaseIds);
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        while (!system.pausedAfter(worker, activityType).equals(expected)) {
            assertThat(System.nanoTime())
                    .as(
                            "%s paused after %s: %s, expected %s",
                            worker, activityType, system.pausedAfter(worker, activityType), expected)
                    .isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
