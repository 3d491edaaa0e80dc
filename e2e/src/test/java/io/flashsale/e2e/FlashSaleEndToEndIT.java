package io.flashsale.e2e;

import static io.flashsale.stores.audit.AuditVerdict.PASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.testing.Race;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient;
import io.flashsale.workflows.TaskQueues;
import io.temporal.api.workflowservice.v1.ListTaskQueuePartitionsResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A flash sale over HTTP against the running system: api and worker as separate processes, one
 * Temporal, MariaDB and Redis. 100 users send 2 concurrent purchases each for 10 units; 5 winners
 * pay, 5 let the deadline pass.
 */
class FlashSaleEndToEndIT extends RunningSystemTest {

    private static final int UNITS = 10;
    private static final int USERS = 100;

    /** A payment sent the moment its order is written is answered within this, or fails. */
    private static final Duration PAID_WITHIN = Duration.ofSeconds(20);

    /**
     * The deadline runs from the order's write (PENDING_PAYMENT): longer than a payment's wait (one
     * status poll and {@link #PAID_WITHIN}, see {@link Purchases#payAsOrdered}), so none races it.
     */
    private static final Duration PAY_TIMEOUT = PAID_WITHIN.plusSeconds(10);

    /**
     * Ready means warm: the api reports UP (its readiness is part of its health) only after it sent
     * itself its warm-up requests through the whole admission path on three private sales: not open
     * yet, sold out, and one where every third request admits a buyer once (one request in three
     * goes to each; the buyers are distinct within the first thousand requests), the workflow start of
     * its first admissions rehearsed on the dev server and deleted.
     */
    @Test
    void theApiReportsReadyOnlyOnceItsAdmissionPathIsWarm() throws Exception {
        String apiLog = system.log("api");
        int admitted = FlashSaleSystem.WARMUP_REQUESTS / 3;

        assertThat(apiLog)
                .contains("admission path warmed: " + FlashSaleSystem.WARMUP_REQUESTS + " requests")
                .contains("answers {202=" + admitted + ", 409=" + (FlashSaleSystem.WARMUP_REQUESTS - admitted) + "}, "
                        + FlashSaleSystem.WARMUP_STARTS + " workflow starts rehearsed");
        assertThat(api.sales(TestTokens.admin()).body().toString()).doesNotContain("warmup_");
        try (SystemStores stores = new SystemStores(system.environment())) {
            assertThat(stores.probe().saleKeysMatching("warmup_*_a"))
                    .as("the admitting sale unloaded")
                    .isEmpty();
        }
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(system.countLiveRuns("WorkflowId STARTS_WITH 'purchase-warmup_'"))
                        .as("no warm-up admission left a workflow: each rehearsed start deleted")
                        .isZero());
    }

    /**
     * The stack starts its apps from their images' class-data archives (FlashSaleStack's AppImage):
     * each process maps one, or it paid the whole class loading again (some 2.5x the CPU of a start).
     */
    @Test
    void theAppsStartFromAClassDataArchive() throws Exception {
        for (String app : List.of("api", "worker")) {
            Path maps = Path.of("/proc", Long.toString(system.pid(app)), "maps");
            assertThat(Files.readAllLines(maps))
                    .as("%s (pid %d) maps its image's app.jsa", app, system.pid(app))
                    .anyMatch(line -> line.endsWith("/app.jsa"));
        }
    }

    /**
     * The apps run the C1 compiler only (FlashSaleStack.JVM_DEFAULTS): with C2 a sale's burst spends
     * about half of each app's CPU compiling (docs/performance.md, "Decisions and their measured effect").
     */
    @Test
    void theAppsRunTheC1CompilerOnly() throws Exception {
        for (String app : List.of("api", "worker")) {
            String command = Files.readString(Path.of("/proc", Long.toString(system.pid(app)), "cmdline"));
            assertThat(command.split("\0")).as("%s's command line", app).contains("-XX:TieredStopAtLevel=1");
        }
    }

    /**
     * The dev server gives the purchase task queue one partition (DevServer): four would forward
     * polls and tasks between them on a server that is one process. The cluster keeps Temporal's
     * default of four, for its matching hosts to share.
     */
    @Test
    void thePurchaseTaskQueueHasOnePartitionOnTheDevServer() {
        ListTaskQueuePartitionsResponse partitions = system.partitions(TaskQueues.PURCHASE);

        int expected = system.onDevServer() ? 1 : 4;
        assertThat(partitions.getWorkflowTaskQueuePartitionsCount()).isEqualTo(expected);
        assertThat(partitions.getActivityTaskQueuePartitionsCount()).isEqualTo(expected);
    }

    /** Two worker processes on one task queue: every purchase still settles exactly once. */
    @Test
    void burstSellsExactlyTheStockAndUnpaidUnitsGoBackOnSale() throws Exception {
        system.startWorkers("worker2");
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, PAY_TIMEOUT)
                        .status())
                .isEqualTo(201);

        List<ApiClient.Response> responses =
                Race.run(burst(saleId)).stream().map(outcome -> outcome.value()).toList();

        List<ApiClient.Response> accepted = only(responses, r -> r.status() == 202);
        assertThat(accepted).hasSize(UNITS);
        assertThat(accepted.stream().map(r -> r.body().path("userId").asText()).distinct())
                .hasSize(UNITS);
        assertThat(only(responses, r -> r.status() == 409)).hasSize(2 * USERS - UNITS);
        // each winner's other click (another key) is already-purchased; every other click is sold-out
        assertThat(countBy(only(responses, r -> r.status() == 409), ApiClient.Response::problemType))
                .isEqualTo(Map.of("already-purchased", (long) UNITS, "sold-out", 2L * USERS - 2L * UNITS));
        report(responses);

        List<String> winners =
                accepted.stream().map(r -> r.body().path("purchaseId").asText()).toList();
        // each payment answers 200 PAID (asked again while it answers 202, outcome not known yet)
        new Purchases(api, saleId).payAsOrdered(winners.subList(0, 5), Duration.ofSeconds(30), PAID_WITHIN);
        awaitStatus(winners.subList(5, UNITS), "EXPIRED", PAY_TIMEOUT.plusSeconds(30));

        assertThat(countBy(winners, id -> status(id))).isEqualTo(Map.of("PAID", 5L, "EXPIRED", 5L));
        ApiClient.Response sale = api.sale(TestTokens.admin(), saleId);
        assertThat(sale.body().path("total").asInt()).isEqualTo(UNITS);
        assertThat(sale.body().path("available").asInt()).isEqualTo(5);
        assertThat(sale.body().path("redisStock").asInt()).isEqualTo(5);
        assertThat(sale.body().path("paid").asInt()).isEqualTo(5);
        assertThat(sale.body().path("pendingPayment").asInt()).isZero();
        Audits.assertAudit(
                api, new AuditReport(saleId, UNITS, 5, 0, 5, 5, 0, 5L, 5, 5, UNITS, 0, 0, List.of(), PASS, null));
        assertThat(activityWorkerPids(winners))
                .as("both workers ran purchase steps")
                .containsExactlyInAnyOrder(system.pid("worker"), system.pid("worker2"));
    }

    /**
     * The pids of the workers that ran the purchases' steps (identity {@code pid@host}): the
     * activity tasks they started, and the workflow tasks they completed, which ran the local steps.
     */
    private static Set<Long> activityWorkerPids(List<String> purchaseIds) {
        return purchaseIds.stream()
                .flatMap(id -> system.history(id).getEvents().stream())
                .flatMap(event -> event.hasActivityTaskStartedEventAttributes()
                        ? Stream.of(
                                event.getActivityTaskStartedEventAttributes().getIdentity())
                        : event.hasWorkflowTaskCompletedEventAttributes()
                                ? Stream.of(event.getWorkflowTaskCompletedEventAttributes()
                                        .getIdentity())
                                : Stream.empty())
                .map(identity -> Long.parseLong(identity.substring(0, identity.indexOf('@'))))
                .collect(Collectors.toSet());
    }

    private static List<Callable<ApiClient.Response>> burst(String saleId) {
        List<Callable<ApiClient.Response>> calls = new ArrayList<>();
        for (int user = 0; user < USERS; user++) {
            String token = TestTokens.buyer("buyer" + user);
            for (int click = 0; click < 2; click++) {
                String key = "click" + click + "-buyer" + user;
                calls.add(() -> api.purchase(token, saleId, key));
            }
        }
        return calls;
    }

    private static void awaitStatus(List<String> purchaseIds, String status, Duration timeout) {
        Waits.polling(Duration.ofMillis(200), "all of %s %s in time".formatted(purchaseIds, status))
                .atMost(timeout)
                .until(() -> purchaseIds.stream().allMatch(id -> status.equals(status(id))));
    }

    private static String status(String purchaseId) {
        return api.status(owner(purchaseId), purchaseId).body().path("status").asText();
    }

    /** purchase-{saleId}-{userId}: the owner's token, as the buyer would hold it. */
    private static String owner(String purchaseId) {
        return TestTokens.buyer(purchaseId.substring(purchaseId.indexOf('-', "purchase-".length()) + 1));
    }

    private static <T> List<T> only(List<T> items, Predicate<T> filter) {
        return items.stream().filter(filter).toList();
    }

    private static <T> Map<String, Long> countBy(List<T> items, Function<T, String> key) {
        return items.stream().collect(Collectors.groupingBy(key, Collectors.counting()));
    }

    private static void report(List<ApiClient.Response> responses) {
        long[] millis = responses.stream()
                .mapToLong(r -> Duration.ofNanos(r.nanos()).toMillis())
                .sorted()
                .toArray();
        System.out.printf(
                "e2e burst: %d requests, p50 %d ms, p99 %d ms, max %d ms%n",
                millis.length,
                millis[millis.length / 2],
                millis[(int) (millis.length * 0.99) - 1],
                Arrays.stream(millis).max().orElse(0));
    }
}
