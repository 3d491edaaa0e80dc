package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fault matrix, the Redis master's machine is lost right after a burst of 202s: the master
 * SIGKILLed, the replication stream its network had not delivered lost, its disk deleted. Sentinel
 * promotes the replica, and the api and the worker follow it. Every 202 waited until the replica
 * had the admission (the replica reads the master 200 ms late here), and the api leaves every
 * workflow start to the relay, so at the loss no purchase exists anywhere but in Redis: every buyer
 * answered 202 still owns exactly one purchase that reaches PENDING_PAYMENT, no unit is sold twice,
 * the audit passes. The same loss without the wait loses answered admissions ({@code
 * ReplicaAcksIT}).
 */
@OnRedisSentinel
@SystemEnvironment("FLASHSALE_START_GIVE_UP_AFTER=1ms")
class RedisMachineLossIT extends RunningSystemTest {

    private static final int UNITS = 20;
    private static final int BUYERS = 40;
    private static final Duration PAY_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @Test
    void everyBuyerAnswered202OwnsOnePurchaseAfterTheMastersMachineIsLost() throws Exception {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, PAY_TIMEOUT)
                        .status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);

        List<ApiClient.Response> burst = purchases.race(Purchases.users("buyer", BUYERS));
        long masterPid = sentinels.master().pid();
        sentinels.loseMaster();

        assertThat(ProcessHandle.of(masterPid))
                .as("the master's process is gone")
                .isEmpty();
        List<String> admitted = burst.stream()
                .filter(r -> r.status() == 202)
                .map(r -> r.body().path("purchaseId").asText())
                .toList();
        assertThat(admitted).hasSize(UNITS).doesNotHaveDuplicates();
        assertThat(burst.stream().filter(r -> r.status() == 409).map(ApiClient.Response::problemType))
                .hasSize(BUYERS - UNITS)
                .containsOnly("sold-out");

        sentinels.awaitReplicaPromoted(Duration.ofSeconds(60));
        purchases.awaitStatus(admitted, "PENDING_PAYMENT", PATIENCE);

        assertThat(purchases.statuses(admitted)).isEqualTo(Map.of("PENDING_PAYMENT", (long) UNITS));
        Audits.assertEveryUnitPendingOnce(Audits.settled(api, saleId, PATIENCE), UNITS);
    }
}
