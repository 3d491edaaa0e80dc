package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fault matrix, Redis dies right after a burst of 202s: a buyer's 202 rests on the admission entry
 * admit.lua wrote (the outbox), not on a workflow start, so Redis is SIGKILLed while admissions still
 * wait in the sale's stream and is started again from its append-only file ({@code appendfsync
 * everysec}, as the project runs it). Every buyer answered 202 still owns exactly one purchase that
 * reaches PENDING_PAYMENT, no unit is sold twice, the audit passes.
 */
@OnOwnRedis
// one workflow start at a time in the api: the burst's admissions are still in the stream at the kill
@SystemEnvironment("FLASHSALE_START_CONCURRENCY=1")
class RedisCrashIT extends RunningSystemTest {

    private static final int UNITS = 30;
    private static final int BUYERS = 60;
    private static final Duration PAY_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    @Test
    void everyBuyerAnswered202OwnsOnePurchaseAfterRedisRestartsFromItsAppendOnlyFile() throws Exception {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, PAY_TIMEOUT)
                        .status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);

        List<ApiClient.Response> burst = purchases.race(Purchases.users("buyer", BUYERS));
        long waitingAtTheKill = report(api.audit(TestTokens.admin(), saleId)).admissionsInFlight();
        long killedPid = redis.node().pid();
        redis.node().kill();

        assertThat(ProcessHandle.of(killedPid)).as("the Redis process is gone").isEmpty();
        assertThat(waitingAtTheKill)
                .as("admissions whose workflow had not started when Redis died")
                .isPositive();
        List<String> admitted = burst.stream()
                .filter(r -> r.status() == 202)
                .map(r -> r.body().path("purchaseId").asText())
                .toList();
        assertThat(admitted).hasSize(UNITS).doesNotHaveDuplicates();
        assertThat(burst.stream().filter(r -> r.status() == 409).map(ApiClient.Response::problemType))
                .hasSize(BUYERS - UNITS)
                .containsOnly("sold-out");

        redis.restart();
        assertThat(redis.log()).contains("DB loaded from append only file");
        purchases.awaitStatus(admitted, "PENDING_PAYMENT", PATIENCE);

        assertThat(purchases.statuses(admitted)).isEqualTo(Map.of("PENDING_PAYMENT", (long) UNITS));
        Audits.assertEveryUnitPendingOnce(Audits.settled(api, saleId, PATIENCE), UNITS);
    }

    private static AuditReport report(ApiClient.Response audit) {
        assertThat(audit.status()).as("%s", audit.body()).isEqualTo(200);
        return Audits.report(audit);
    }
}
