package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.activities.testing.TestSales;
import io.flashsale.api.TestTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fault matrix, worker killed: worker processes die by SIGKILL (no shutdown hook, no drain) while
 * purchases confirm holds and write orders, while they wait for payment, and at the pay deadline
 * while compensations run. Other worker processes started by the test finish every purchase exactly
 * once.
 */
class WorkerCrashIT extends RunningSystemTest {

    /** The SDK's long-poll deadline (70 s) less the wait {@link FlashSaleSystem#killWorker} did. */
    private static final Duration DEAD_POLLS_EXPIRE = Duration.ofSeconds(60);

    private static final int UNITS = 10;

    @Test
    void workersKilledAtEveryStageLeaveEveryPurchaseFinishedExactlyOnce() throws Exception {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, "PT120S").status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);
        List<String> users = Purchases.users("buyer", UNITS + 2);

        List<ApiClient.Response> responses = purchases.race(users);
        system.killWorker("worker"); // holds being confirmed, orders being written
        List<String> winners = responses.stream()
                .filter(r -> r.status() == 202)
                .map(r -> r.body().path("purchaseId").asText())
                .toList();
        assertThat(winners).hasSize(UNITS);
        assertThat(responses.stream().filter(r -> r.status() == 409).map(ApiClient.Response::problemType))
                .containsExactly("sold-out", "sold-out");

        system.startWorkers("worker2", "worker3", "worker4");
        purchases.awaitStatus(winners, "PENDING_PAYMENT", Duration.ofSeconds(60));
        purchases.pay(winners.subList(0, 4));
        system.killWorker("worker2"); // purchases waiting for payment
        // Temporal's dev test server keeps the killed worker's outstanding long polls until their
        // deadline (70 s, the SDK's poll timeout) and can hand an Update's workflow task to one of
        // them, which then never times out; a real Temporal server times such a task out. Pay once
        // those polls are gone (the pay timeout, PT120S, leaves room): another worker serves them.
        Thread.sleep(DEAD_POLLS_EXPIRE.toMillis());
        purchases.pay(winners.subList(4, 7));

        List<String> unpaid = winners.subList(7, UNITS);
        sleepUntil(purchases.lastDeadline(unpaid));
        system.killWorker("worker3"); // deadlines fired: compensations under way
        // Temporal times out the dead worker's workflow task and activities (10 s each) and retries
        // them on another worker; on a loaded 2-core machine that can take a while
        purchases.awaitStatus(unpaid, "EXPIRED", Duration.ofSeconds(120));

        assertThat(purchases.statuses(winners)).isEqualTo(Map.of("PAID", 7L, "EXPIRED", 3L));
        ApiClient.Response audit = api.audit(TestTokens.admin(), saleId);
        assertThat(audit.body().path("violations")).isEmpty();
        assertThat(audit.body().path("result").asText()).isEqualTo("PASS");
        assertThat(Audits.counts(audit)).isEqualTo(new Audits.Counts(UNITS, 3, 0, 7, 3, 0, 3L, 7, 3, UNITS, 0, 0));
    }

    private static void sleepUntil(Instant instant) throws InterruptedException {
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), instant).toMillis()));
    }
}
