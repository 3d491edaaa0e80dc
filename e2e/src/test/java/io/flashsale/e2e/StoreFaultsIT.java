package io.flashsale.e2e;

import static io.flashsale.stores.audit.AuditVerdict.FAIL;
import static io.flashsale.stores.audit.AuditVerdict.PASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.admission.AdmissionEntry;
import io.flashsale.stores.admission.AdmissionOutcome;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.testing.StoreProbe;
import io.flashsale.stores.testing.TestAdmissions;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient;
import io.grpc.StatusRuntimeException;
import io.temporal.common.WorkflowExecutionHistory;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fault matrix, stores and the api: the api dies between admission and workflow start, a relay
 * consumer dies holding entries, Redis loses a sale, MySQL is unreachable until the steps that
 * need it are being retried (and once under 300 concurrent payments). The api and worker reach MySQL through a link of the project's one proxy (Toxiproxy) this test
 * controls; relays claim entries of a dead consumer after 2 s; the client address has no rate
 * limit (the test's buyers all come from one address); pay and cancel answer 202 only after {@link
 * #PAYMENTS_ANSWERED_WITHIN}.
 */
class StoreFaultsIT extends ProxiedSystemTest {

    /**
     * A step's first attempt ends by the activity's start-to-close timeout (10 s) at the latest; a
     * local step takes three failed attempts in the worker (each up to its 10 s timeout while MySQL
     * cannot be reached) before it is handed to an activity task, whose first attempt takes as long.
     */
    private static final Duration RETRY_WITHIN = Duration.ofSeconds(90);

    /**
     * A local activity (version local-steps): its attempts in the worker are in its markers, and once
     * they failed it is an activity task.
     */
    private static final String CREATE_ORDER = "CreateOrder";

    /** A relay pass starts every 200 ms and takes milliseconds. */
    private static final Duration RELAY_PASS_WITHIN = Duration.ofSeconds(10);

    /**
     * More payments than the api has HTTP threads (Tomcat's 200): had a payment held one while it
     * waits for MySQL, the admissions sent meanwhile would find none.
     */
    private static final int PAYERS = 300;
    /**
     * A pay or cancel whose outcome is not known within this is answered 202 (the api's
     * FLASHSALE_COMMAND_ANSWER_WITHIN, 3 s by default): long enough here that the payments stay open
     * in the api while the test waits until all of them arrived and sends its admissions. The api
     * raises Spring MVC's async request timeout above it (else 503 after Tomcat's 30 s).
     */
    private static final Duration PAYMENTS_ANSWERED_WITHIN = Duration.ofSeconds(120);
    /**
     * An admission's answer while the payments are open: far below {@link #PAYMENTS_ANSWERED_WITHIN},
     * so an admission waiting for a thread the payments held could not make it, and far above its
     * usual milliseconds, so a loaded machine does not fail the test.
     */
    private static final Duration ADMITTED_WITHIN = Duration.ofSeconds(20);
    /** All payments reached the api and their Updates the workflows, well before they are answered. */
    private static final Duration PAYING_WITHIN = PAYMENTS_ANSWERED_WITHIN.minusSeconds(30);

    /** A payment sent the moment its order is written is answered within this, or fails. */
    private static final Duration PAID_WITHIN = Duration.ofSeconds(10);
    /**
     * From the order to the deadline, for purchases left to expire: longer than a payment's wait (one
     * status poll and {@link #PAID_WITHIN}, see {@link Purchases#payAsOrdered}), so none races it.
     */
    private static final Duration PAY_TIMEOUT = PAID_WITHIN.plusSeconds(5);
    /**
     * For sales whose purchases are all paid or cancelled: far longer than every wait of those tests
     * (each a few minutes at most), so no deadline races a payment or a cancel there.
     */
    private static final Duration NOTHING_EXPIRES = Duration.ofHours(1);

    /** MySQL reached directly, not through the proxy: what it holds while the processes cannot reach it. */
    private static SystemStores direct;

    private static StoreProbe mysql;

    @BeforeAll
    static void startBehindMySqlProxy() throws Exception {
        String[] directUrl = new String[1];
        startSystem(environment -> {
            String url = environment.get("MYSQL_URL");
            directUrl[0] = url;
            URI server = URI.create(url.substring("jdbc:".length()));
            String proxied = url.replace(server.getAuthority(), proxyTo(server.getHost(), server.getPort()));
            return FlashSaleSystem.with(
                    environment,
                    Map.of(
                            "MYSQL_URL",
                            proxied,
                            "FLASHSALE_WORKER_RELAY_CLAIMIDLE",
                            "2s",
                            // the relay takes an admission the api never started after 1 s, not 5
                            "FLASHSALE_RELAY_HANDOFF",
                            "1s",
                            "FLASHSALE_RATE_LIMIT_ADDRESS_CAPACITY",
                            "0",
                            "FLASHSALE_COMMAND_ANSWER_WITHIN",
                            PAYMENTS_ANSWERED_WITHIN.toSeconds() + "s"));
        });
        direct = new SystemStores(FlashSaleSystem.with(system.environment(), Map.of("MYSQL_URL", directUrl[0])));
        mysql = direct.probe();
    }

    @AfterAll
    static void closeDirectStores() {
        if (direct != null) {
            direct.close();
        }
        direct = null;
        mysql = null;
    }

    /** Fault: api died after the admission Lua, before starting the workflow; and a relay died too. */
    @Test
    void relayStartsAdmissionsTheApiNeverStartedAndClaimsThoseOfADeadConsumer() throws Exception {
        String saleId = newSale(6, PAY_TIMEOUT);
        Purchases purchases = new Purchases(api, saleId);
        List<String> users = Purchases.users("orphan", 4);
        hideFromTheRelay(saleId);
        for (String user : users) {
            assertThat(TestAdmissions.admit(stores.gate(), saleId, user, "key-" + user)
                            .outcome())
                    .isEqualTo(AdmissionOutcome.ADMITTED);
        }
        List<AdmissionEntry> taken = stores.stream().readNew(saleId, "relay-that-dies", 2);
        assertThat(taken).hasSize(2);
        assertThat(purchases.status(purchases.purchaseId(users.get(0)))).isEqualTo("RESERVED");
        assertThat(api.audit(TestTokens.buyer("orphan0"), saleId).status()).isEqualTo(403);
        assertThat(api.get("/api/sales", TestTokens.buyer("orphan0")).status()).isEqualTo(403);
        assertThat(api.get("/api/sales", TestTokens.admin())
                        .body()
                        .path("sales")
                        .toString())
                .contains("\"" + saleId + "\"");
        ApiClient.Response refused = api.post("/api/sales/" + saleId + "/audit/repair", TestTokens.admin(), null);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.problemType()).isEqualTo("admissions-in-flight");

        stores.relayed(saleId, true);
        List<String> ids = purchases.purchaseIds(users);
        purchases.payAsOrdered(ids.subList(0, 2), Duration.ofSeconds(60), PAID_WITHIN);
        purchases.awaitStatus(ids.subList(2, 4), "EXPIRED", Duration.ofSeconds(60));

        assertThat(purchases.statuses(ids)).isEqualTo(Map.of("PAID", 2L, "EXPIRED", 2L));
        Audits.assertAudit(api, new AuditReport(saleId, 6, 4, 0, 2, 2, 0, 4L, 2, 2, 4, 0, 0, List.of(), PASS, null));
    }

    /**
     * Hides the sale from the relay and waits until no relay pass that listed it is still running, so
     * nothing but the test reads what is admitted to it next. The relay lists its sales once per pass
     * (one ZRANGE) and runs one pass at a time: once it read a sale created after the hide (its
     * consumer shows in that sale's stream group, which it reads only for an admission older than
     * its handoff: one is admitted there, past the api), every pass that could have listed the
     * hidden sale is over.
     */
    private static void hideFromTheRelay(String saleId) {
        stores.relayed(saleId, false);
        String later = newSale(1, NOTHING_EXPIRES);
        assertThat(TestAdmissions.admit(stores.gate(), later, "probe", "key-probe")
                        .outcome())
                .isEqualTo(AdmissionOutcome.ADMITTED);
        Waits.polling(Duration.ofMillis(50), "a relay pass visited %s within %s".formatted(later, RELAY_PASS_WITHIN))
                .atMost(RELAY_PASS_WITHIN)
                .until(() -> !stores.relayConsumers(later).isEmpty()); // the system's one worker runs the one relay
    }

    /** Fault: Redis loses every key of a running sale. MySQL never oversells; repair rebuilds Redis. */
    @Test
    void redisLosingASaleIsReportedAndRepairedWithoutOversell() throws Exception {
        String saleId = newSale(6, NOTHING_EXPIRES);
        Purchases purchases = new Purchases(api, saleId);
        List<String> first = Purchases.users("early", 4);
        assertThat(purchases.race(first)).allMatch(r -> r.status() == 202);
        List<String> firstIds = purchases.purchaseIds(first);
        purchases.awaitStatus(firstIds, "PENDING_PAYMENT", Duration.ofSeconds(60));
        purchases.pay(firstIds.subList(0, 2));

        assertThat(stores.loseSale(saleId)).isPositive();
        ApiClient.Response drift = api.audit(TestTokens.admin(), saleId);
        assertThat(drift.body().path("result").asText()).isEqualTo("FAIL");
        assertThat(drift.body().path("violations").findValuesAsText("invariant"))
                .containsOnly("I3");
        assertThat(Audits.report(drift))
                .usingRecursiveComparison()
                .ignoringFields("violations")
                .isEqualTo(new AuditReport(saleId, 6, 2, 2, 2, 0, 0, null, 0, 0, 0, 0, 2, List.of(), FAIL, null));
        assertThat(api.purchase(TestTokens.buyer("meanwhile"), saleId, "k").problemType())
                .isEqualTo("sale-not-found");
        Launcher.Run failing = Launcher.audit(system.api(), "--sale", saleId);
        System.out.print("bin/flashsale audit after Redis lost the sale:\n" + failing.output());
        assertThat(failing.exitCode()).as(failing.output()).isEqualTo(1);
        assertThat(failing.output()).contains(saleId, "FAIL", "I3: Redis has no stock for the sale (lost?)");

        ApiClient.Response repaired = api.post("/api/sales/" + saleId + "/audit/repair", TestTokens.admin(), null);
        assertThat(repaired.status()).isEqualTo(200);
        assertThat(repaired.body().path("saleReloaded").asBoolean()).isTrue();
        assertThat(repaired.body().path("holdsRestored")).hasSize(4);
        assertThat(repaired.body().path("holdsReleased")).isEmpty();
        assertThat(repaired.body().path("buyersRestored").asInt()).isEqualTo(4);
        assertThat(repaired.body().path("stockAfter").asInt()).isEqualTo(2);
        assertThat(repaired.body().path("audit").path("result").asText()).isEqualTo("PASS");
        Launcher.Run passing = Launcher.audit(system.api(), "--sale", saleId);
        System.out.print("bin/flashsale audit after the repair:\n" + passing.output());
        assertThat(passing.exitCode()).as(passing.output()).isZero();
        assertThat(passing.output()).contains(saleId, "PASS");
        ApiClient.Response again = api.post("/api/sales/" + saleId + "/audit/repair", TestTokens.admin(), null);
        assertThat(again.body().path("holdsRestored")).isEmpty();
        assertThat(again.body().path("buyersRestored").asInt()).isZero();

        List<ApiClient.Response> late = purchases.race(Purchases.users("late", 4));
        assertThat(late.stream().map(r -> r.status() == 202 ? "admitted" : r.problemType()))
                .containsExactlyInAnyOrder("admitted", "admitted", "sold-out", "sold-out");
        assertThat(api.purchase(TestTokens.buyer("early0"), saleId, "another-key")
                        .problemType())
                .isEqualTo("already-purchased");
        List<String> lateIds = late.stream()
                .filter(r -> r.status() == 202)
                .map(r -> r.body().path("purchaseId").asText())
                .toList();
        purchases.awaitStatus(lateIds, "PENDING_PAYMENT", Duration.ofSeconds(60));
        purchases.cancel(firstIds.subList(2, 4));
        purchases.cancel(lateIds);

        Audits.assertAudit(api, new AuditReport(saleId, 6, 4, 0, 2, 0, 4, 4L, 2, 4, 6, 0, 0, List.of(), PASS, null));
    }

    /**
     * Fault: MySQL unreachable while orders are written, and again while orders are cancelled. Each
     * outage lasts until every purchase's step failed once and Temporal retries it (its pending
     * activity is on attempt 2), whatever the activity timeout and Hikari's connection wait make of
     * the first attempt; the stores are checked while MySQL is still down, and the histories show each
     * step ended on a later attempt than the first.
     */
    @Test
    void activitiesRetryThroughMySqlOutagesWithNothingLostOrDoubled() throws Exception {
        String saleId = newSale(6, NOTHING_EXPIRES);
        Purchases purchases = new Purchases(api, saleId);

        proxy.cut();
        List<String> ids = admitted(purchases.race(Purchases.users("patient", 8)));
        assertThat(ids).hasSize(6);
        awaitRetrying(ids, CREATE_ORDER);
        assertThat(purchases.statuses(ids)).isEqualTo(Map.of("RESERVED", 6L));
        assertThat(mysql.orders(saleId)).isEmpty();
        assertThat(mysql.available(saleId)).isEqualTo(6);
        assertThat(stores.heldCount(saleId)).isEqualTo(6);
        proxy.restore();

        purchases.awaitStatus(ids, "PENDING_PAYMENT", Duration.ofSeconds(60));
        assertEndedOnALaterAttempt(ids, CREATE_ORDER);
        purchases.pay(ids.subList(0, 3));
        List<String> cancelled = ids.subList(3, 6);
        proxy.cut();
        List<Thread> cancels = purchases.cancelInBackground(cancelled); // the order cancels wait for MySQL
        awaitRetrying(cancelled, "CancelOrder");
        assertThat(purchases.statuses(ids)).isEqualTo(Map.of("PAID", 3L, "PENDING_PAYMENT", 3L));
        assertThat(mysql.orders(saleId))
                .extracting(order -> order.split(" ")[1])
                .containsExactlyInAnyOrder(
                        "PAID", "PAID", "PAID", "PENDING_PAYMENT", "PENDING_PAYMENT", "PENDING_PAYMENT");
        assertThat(mysql.available(saleId)).isZero();
        assertThat(stores.heldCount(saleId))
                .as("no unit back in Redis before MySQL")
                .isEqualTo(6);
        assertThat(stores.redisStock(saleId)).isZero();
        proxy.restore();
        purchases.awaitStatus(cancelled, "CANCELLED", Duration.ofSeconds(60));
        for (Thread cancel : cancels) {
            cancel.join();
        }

        assertEndedOnALaterAttempt(cancelled, "CancelOrder");
        assertThat(purchases.statuses(ids)).isEqualTo(Map.of("PAID", 3L, "CANCELLED", 3L));
        Audits.assertAudit(api, new AuditReport(saleId, 6, 3, 0, 3, 0, 3, 3L, 3, 3, 6, 0, 0, List.of(), PASS, null));
    }

    /**
     * Waits until the {@code activityType} step of every purchase failed once and is being retried:
     * its activity task's pending attempt is 2 or more. A local step ({@link #CREATE_ORDER}) gets
     * there once its attempts in the worker failed and its activity task failed once more.
     */
    private static void awaitRetrying(List<String> purchaseIds, String activityType) {
        Waits.polling(
                        Duration.ofMillis(200),
                        "%s of %s retried within %s".formatted(activityType, purchaseIds, RETRY_WITHIN))
                .atMost(RETRY_WITHIN)
                .until(() -> purchaseIds.stream()
                        .allMatch(id -> ActivityAttempts.pending(system.describe(id), activityType) > 1));
    }

    /**
     * Each purchase's step ended on a later attempt than the first; a local step's attempts in the
     * worker all failed first (one marker, its last attempt's failure) before its activity task.
     */
    private static void assertEndedOnALaterAttempt(List<String> purchaseIds, String activityType) {
        for (String id : purchaseIds) {
            WorkflowExecutionHistory history = system.history(id);
            if (activityType.equals(CREATE_ORDER)) {
                assertThat(ActivityAttempts.localSteps(history, activityType))
                        .as("local attempts of %s of %s", activityType, id)
                        .extracting(ActivityAttempts.LocalStep::attempt, ActivityAttempts.LocalStep::failed)
                        .containsExactly(tuple(3, true));
            }
            assertThat(ActivityAttempts.ended(history, activityType))
                    .as("attempt that ended %s of %s", activityType, id)
                    .isGreaterThan(1);
        }
    }

    private static List<String> admitted(List<ApiClient.Response> responses) {
        return responses.stream()
                .filter(r -> r.status() == 202)
                .map(r -> r.body().path("purchaseId").asText())
                .toList();
    }

    /**
     * Fault: MySQL unreachable while 300 payments arrive at once (each {@code markPaid} retries). Pay
     * holds no HTTP thread while its Update waits: with all 300 payments open in the api, each
     * accepted by its workflow and none answered, admission (Redis only) answers each of 10 buyers
     * before any payment is answered; once MySQL is back every payment is answered (PAID, or 202 should its outcome take
     * longer than {@link #PAYMENTS_ANSWERED_WITHIN}) and completes.
     */
    @Test
    void admissionKeepsAnsweringWhileHundredsOfPaymentsWaitForMySql() throws Exception {
        String saleId = newSale(PAYERS, NOTHING_EXPIRES);
        Purchases purchases = new Purchases(api, saleId);
        List<String> ids = purchases.purchaseIds(Purchases.users("payer", PAYERS));
        assertThat(purchases.race(Purchases.users("payer", PAYERS)))
                .extracting(ApiClient.Response::status)
                .containsOnly(202);
        purchases.awaitStatus(ids, "PENDING_PAYMENT", Duration.ofSeconds(120));
        String nextSale = newSale(10, Duration.ofMinutes(10));

        proxy.cut();
        ExecutorService payers = Executors.newFixedThreadPool(PAYERS);
        List<Future<ApiClient.Response>> payments = new ArrayList<>();
        for (String id : ids) {
            payments.add(payers.submit(() -> api.waitingUpTo(PAYMENTS_ANSWERED_WITHIN.plusSeconds(30))
                    .pay(TestTokens.payments(), id, "pay-" + id)));
        }
        awaitPaying(ids, payments);
        List<Integer> admissions = admitWithin(nextSale, 10, ADMITTED_WITHIN);
        assertThat(payments)
                .as("no payment answered before the admissions were")
                .noneMatch(Future::isDone);
        proxy.restore();
        List<Integer> answered = statuses(payments);
        payers.shutdown();

        assertThat(admissions).hasSize(10).containsOnly(202);
        assertThat(answered).hasSize(PAYERS).allMatch(status -> status == 200 || status == 202);
        purchases.awaitStatus(ids, "PAID", Duration.ofSeconds(120));
        assertThat(purchases.statuses(ids)).isEqualTo(Map.of("PAID", (long) PAYERS));
    }

    /**
     * Waits until every payment is in the api, waiting for its Update: Temporal accepted each
     * purchase's {@code pay} Update (its {@code markPaid} is pending, retried while MySQL is down) and
     * none of the payment requests has been answered.
     */
    private static void awaitPaying(List<String> purchaseIds, List<Future<ApiClient.Response>> payments) {
        Set<String> notYet = new TreeSet<>(purchaseIds);
        long started = System.nanoTime();
        try {
            Waits.polling(Duration.ofMillis(200)).atMost(PAYING_WITHIN).until(() -> {
                notYet.removeAll(accepted(notYet));
                // an answered payment fails at once: until() takes no AssertionError for "not yet"
                assertThat(payments).as("payments answered early").noneMatch(Future::isDone);
                return notYet.isEmpty();
            });
        } catch (ConditionTimeoutException late) {
            throw new AssertionError(
                    "all %d pay Updates accepted within %s, not yet %s"
                            .formatted(purchaseIds.size(), PAYING_WITHIN, notYet),
                    late);
        }
        System.out.printf(
                "%d pay Updates accepted, none answered, %d ms after the payments were sent%n",
                purchaseIds.size(),
                Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    /**
     * Of these purchases, those whose workflow accepted a {@code pay} Update: its {@code markPaid} is
     * pending. None when Temporal did not answer in time (busy with the payments): ask again later.
     */
    private static Set<String> accepted(Set<String> purchaseIds) {
        try {
            return system.describe(List.copyOf(purchaseIds)).entrySet().stream()
                    .filter(workflow -> ActivityAttempts.pending(workflow.getValue(), "MarkPaid") > 0)
                    .map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
        } catch (StatusRuntimeException busy) {
            return Set.of();
        }
    }

    /** Admits {@code buyers} one after the other, each answer within {@code bound} or an error. */
    private static List<Integer> admitWithin(String saleId, int buyers, Duration bound) {
        List<Integer> statuses = new ArrayList<>();
        for (String user : Purchases.users("admitted", buyers)) {
            statuses.add(api.waitingUpTo(bound)
                    .purchase(TestTokens.buyer(user), saleId, "key-" + user)
                    .status());
        }
        return statuses;
    }

    private static List<Integer> statuses(List<Future<ApiClient.Response>> responses) throws Exception {
        List<Integer> statuses = new ArrayList<>();
        for (Future<ApiClient.Response> response : responses) {
            statuses.add(response.get(60, TimeUnit.SECONDS).status());
        }
        return statuses;
    }

    private static String newSale(int units, Duration payTimeout) {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, units, payTimeout).status())
                .isEqualTo(201);
        return saleId;
    }
}
