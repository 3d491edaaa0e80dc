package io.flashsale.e2e;

import static io.flashsale.stores.audit.AuditVerdict.PASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.admission.HoldState;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fault matrix, Temporal: the api and the worker reach Temporal through a link of the project's one proxy (Toxiproxy) this test
 * controls. While it is cut, admissions go on in Redis (stock, hold, buyer, stream entry in one Lua
 * call); the api's workflow start fails, so the admission stays in the sale's stream (the outbox)
 * and the worker's relay starts the workflow once Temporal is back.
 */
class TemporalOutageIT extends ProxiedSystemTest {

    /** Well beyond the api's bounded Temporal retries (FLASHSALE_TEMPORAL_RETRY, 2 s). */
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** A payment or cancel sent the moment its order is written is answered within this, or fails. */
    private static final Duration ANSWERED_WITHIN = Duration.ofSeconds(10);
    /**
     * From the order to the deadline: longer than the wait of a payment or cancel (one status poll
     * and {@link #ANSWERED_WITHIN}, see {@link Purchases#settleAsOrdered}), so none races it.
     */
    private static final Duration PAY_TIMEOUT = ANSWERED_WITHIN.plusSeconds(5);

    @BeforeAll
    static void startBehindTemporalProxy() throws Exception {
        startSystem(environment -> {
            String[] address = environment.get("TEMPORAL_ADDRESS").split(":");
            return FlashSaleSystem.with(
                    environment, Map.of("TEMPORAL_ADDRESS", proxyTo(address[0], Integer.parseInt(address[1]))));
        });
    }

    /** Fault: Temporal unreachable while buyers are admitted; every purchase completes once it is back. */
    @Test
    void admissionsDuringATemporalOutageAreHeldInTheStreamAndAllCompleteOnceItIsBack() throws Exception {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, 6, PAY_TIMEOUT).status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);
        List<String> users = Purchases.users("outage", 5);
        List<String> ids = purchases.purchaseIds(users);
        ExecutorService buyers = Executors.newFixedThreadPool(users.size() + 1);
        try {
            proxy.cut();
            List<CompletableFuture<ApiClient.Response>> admissions = users.stream()
                    .map(user -> CompletableFuture.supplyAsync(
                            () -> api.waitingUpTo(PATIENCE).purchase(TestTokens.buyer(user), saleId, "key-" + user),
                            buyers))
                    .toList();
            awaitHeld(saleId, ids);
            assertThat(stores.admissions(saleId))
                    .as("every admission waits in the stream")
                    .isEqualTo(5);
            CompletableFuture<ApiClient.Response> statusDuringOutage = CompletableFuture.supplyAsync(
                    () -> api.waitingUpTo(PATIENCE).status(Purchases.owner(ids.get(0)), ids.get(0)), buyers);

            List<ApiClient.Response> answers =
                    admissions.stream().map(CompletableFuture::join).toList();
            ApiClient.Response status = statusDuringOutage.join();

            System.out.printf(
                    "Temporal unreachable: purchases answered %s after %s ms; GET status answered %s %s after %d ms%n",
                    answers.stream().map(ApiClient.Response::status).toList(),
                    answers.stream().map(a -> a.nanos() / 1_000_000).toList(),
                    status.status(),
                    status.body(),
                    status.nanos() / 1_000_000);
            assertThat(answers).allSatisfy(answer -> {
                assertThat(answer.status()).as("%s", answer.body()).isEqualTo(202);
                assertThat(answer.body().path("status").asText()).isEqualTo("RESERVED");
            });
            assertThat(answers.stream().map(a -> a.body().path("purchaseId").asText()))
                    .containsExactlyElementsOf(ids);
            assertStatusDuringOutage(status);
            assertThat(stores.admissions(saleId))
                    .as("the api's starts failed: nothing left the stream, nothing lost")
                    .isEqualTo(5);
            assertThat(ids).allSatisfy(id -> assertThat(stores.gate().holdState(saleId, id))
                    .contains(HoldState.HELD));
            // the outage lasts until each of the api's starts has given up (its retries take 2 s),
            // so a start still under way cannot slip through once the proxy is restored
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(ids).allSatisfy(id -> assertThat(system.log("api"))
                            .contains("workflow start deferred to the relay purchaseId=" + id + ":")));
        } finally {
            proxy.restore();
            buyers.shutdownNow();
        }

        purchases.settleAsOrdered(ids.subList(0, 2), ids.subList(2, 3), Duration.ofSeconds(60), ANSWERED_WITHIN);
        purchases.awaitStatus(ids.subList(3, 5), "EXPIRED", Duration.ofSeconds(60));
        assertThat(stores.admissions(saleId)).isZero();

        assertThat(purchases.statuses(ids)).isEqualTo(Map.of("PAID", 2L, "CANCELLED", 1L, "EXPIRED", 2L));
        String apiLog = system.log("api");
        String workerLog = system.log("worker");
        assertThat(ids).allSatisfy(id -> {
            assertThat(apiLog).contains("workflow start deferred to the relay purchaseId=" + id + ":");
            assertThat(workerLog).contains("relay started purchaseId=" + id + " ");
        });
        Audits.assertAudit(api, new AuditReport(saleId, 6, 4, 0, 2, 2, 1, 4L, 2, 3, 5, 0, 0, List.of(), PASS, null));
    }

    /** The status query cannot reach Temporal: the api answers from the Redis hold. */
    private static void assertStatusDuringOutage(ApiClient.Response status) {
        assertThat(status.status()).as("%s", status.body()).isEqualTo(200);
        assertThat(status.body().path("status").asText()).isEqualTo("RESERVED");
    }

    private static void awaitHeld(String saleId, List<String> ids) {
        Waits.polling(Duration.ofMillis(50), "holds of %s HELD".formatted(ids))
                .atMost(Duration.ofSeconds(10))
                .until(
                        () -> ids.stream().collect(Collectors.toMap(id -> id, id -> stores.gate()
                                .holdState(saleId, id))),
                        holds -> holds.values().stream().allMatch(Optional.of(HoldState.HELD)::equals));
    }
}
