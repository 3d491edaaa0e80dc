package io.flashsale.e2e;

import static io.flashsale.stores.audit.AuditVerdict.PASS;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient;
import io.temporal.api.enums.v1.PendingActivityState;
import io.temporal.api.history.v1.ActivityTaskStartedEventAttributes;
import io.temporal.common.WorkflowExecutionHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Fault matrix, worker killed: one sale's purchases meet a worker killed by SIGKILL (no shutdown
 * hook, no drain) at every step of the saga, one worker after the other. Each killed worker was
 * started with its activities of one type pausing after their work (the Lua script ran, the
 * transaction committed, the order was marked paid) and before Temporal hears of it, so the kill
 * lands exactly there. For an activity task, before each kill Temporal shows every one of those
 * activities started by that worker's pid and not ended, and afterwards each purchase's history
 * shows the activity ended on a later attempt by the next worker, which must find the work done
 * rather than do it again. The first two steps are local activities, run inside the workflow task:
 * before the kill each purchase's workflow task is running on that pid (and the step has no marker
 * yet), afterwards the history shows that workflow task timed out and the step's marker recorded by
 * the next worker's workflow task. The
 * workers run with sticky execution on, as in production, so each kill also leaves workflow tasks
 * on a dead worker's sticky queue, which the real Temporal server moves to a live worker.
 */
@OwnWorkers
class WorkerCrashIT extends RunningSystemTest {

    /** 10, or more in the soak profile ({@code ./mvnw -B verify -Psoak}). */
    private static final int UNITS = Integer.getInteger("flashsale.crash.units", 10);
    /** Paid during the pay wait, their payments interrupted by the kill; the rest expire. */
    private static final int PAID = 4;

    private static final int LOSERS = 2;
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(90);
    /** A wait with one look at the condition and no second, for a deadline already past. */
    private static final Duration ONE_LOOK = Duration.ofMillis(1);
    /**
     * From the order (PENDING_PAYMENT) to the deadline. Step 3 pays as soon as every order is written
     * and waits for the payments' acceptance (their markPaid ran) no longer than the first of their
     * deadlines, so no deadline can overtake a payment the test counts on; once accepted, a payment
     * no longer races it. The unpaid six expire this long after their order.
     */
    private static final Duration PAY_TIMEOUT = Duration.ofSeconds(60);

    /** The steps that run as local activities, inside the workflow task (version local-steps). */
    private static final Set<String> LOCAL_STEPS = Set.of("ConfirmReservation", "CreateOrder");

    /**
     * What a worker held when it was killed: each purchase's attempt of the activity, started by its
     * pid (of a local step: 0, the workflow task running it was the pid's).
     */
    private record Held(String activityType, long pid, Map<String, Integer> attempts) {}

    @Test
    void purchasesSurviveAWorkerKilledAtEveryStepAndFinishExactlyOnce() throws Exception {
        String saleId = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), saleId, UNITS, PAY_TIMEOUT)
                        .status())
                .isEqualTo(201);
        Purchases purchases = new Purchases(api, saleId);

        // 1. killed after confirmReservation: the holds are confirmed, Temporal does not know
        system.startWorkers(Map.of("confirming", FlashSaleSystem.pausingAfter("ConfirmReservation")));
        List<ApiClient.Response> responses = purchases.race(Purchases.users("buyer", UNITS + LOSERS));
        List<String> winners = responses.stream()
                .filter(r -> r.status() == 202)
                .map(r -> r.body().path("purchaseId").asText())
                .toList();
        assertThat(winners).hasSize(UNITS);
        assertThat(responses.stream().filter(r -> r.status() == 409).map(ApiClient.Response::problemType))
                .hasSize(LOSERS)
                .containsOnly("sold-out");
        awaitPaused("confirming", "ConfirmReservation", winners, stepDeadline());
        Audits.awaitAudit(
                api,
                new AuditReport(saleId, UNITS, UNITS, 0, 0, 0, 0, 0L, UNITS, 0, UNITS, 0, UNITS, List.of(), PASS, null),
                Duration.ofSeconds(30));
        Held confirming = killHolding("confirming", "ConfirmReservation", winners);

        // 2. killed inside createOrder after the commit: the orders exist, Temporal does not know
        system.startWorkers(Map.of("ordering", FlashSaleSystem.pausingAfter("CreateOrder")));
        awaitPaused("ordering", "CreateOrder", winners, stepDeadline());
        Audits.assertAudit(
                api,
                new AuditReport(
                        saleId, UNITS, 0, UNITS, 0, 0, 0, 0L, UNITS, 0, UNITS, 0, UNITS, List.of(), PASS, null));
        awaitRecordedBy("ordering", "ConfirmReservation", winners);
        Held ordering = killHolding("ordering", "CreateOrder", winners);

        // 3. killed during the pay wait, inside markPaid after the commit: "waiting", the only worker,
        // accepted the payments and marked the orders paid, Temporal does not know (should the unpaid
        // expire before the kill, their releases pause here too and "compensating" repeats them)
        system.startWorkers(Map.of("waiting", FlashSaleSystem.pausingAfter("MarkPaid", "ReleaseReservation")));
        purchases.awaitStatus(winners, "PENDING_PAYMENT", STEP_TIMEOUT);
        List<String> paid = winners.subList(0, PAID);
        assertThat(purchases.sendPayments(paid))
                .as("outcome unknown while markPaid is paused")
                .extracting(ApiClient.Response::status)
                .containsOnly(202);
        awaitPaused("waiting", "MarkPaid", paid, purchases.firstDeadline(paid));
        Held waiting = killHolding("waiting", "MarkPaid", paid);

        // 4. killed during compensation: the deadline passed, the units are back in Redis (the
        // orders EXPIRED before that), Temporal does not know; "compensating" completes the payments
        system.startWorkers(Map.of("compensating", FlashSaleSystem.pausingAfter("ReleaseReservation")));
        purchases.pay(paid);
        List<String> unpaid = winners.subList(PAID, UNITS);
        awaitPaused("compensating", "ReleaseReservation", unpaid, stepDeadline());
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
                PASS,
                null);
        Audits.assertAudit(api, settled);
        Held compensating = killHolding("compensating", "ReleaseReservation", unpaid);

        // the last worker repeats the releases: every unit came back once already, so nothing moves
        system.startWorker("finishing");
        purchases.awaitStatus(unpaid, "EXPIRED", STEP_TIMEOUT);
        assertThat(purchases.statuses(winners)).isEqualTo(Map.of("PAID", (long) PAID, "EXPIRED", (long) expired));
        Audits.assertAudit(api, settled);
        assertRepeatedBy(confirming, "ordering");
        assertRepeatedBy(ordering, "waiting");
        assertRepeatedBy(waiting, "compensating");
        assertRepeatedBy(compensating, "finishing");
    }

    private static Instant stepDeadline() {
        return Instant.now().plus(STEP_TIMEOUT);
    }

    /**
     * Waits until the worker paused exactly these purchases after the activity, no more, no fewer,
     * failing at {@code deadline}.
     */
    private static void awaitPaused(String worker, String activityType, List<String> purchaseIds, Instant deadline) {
        Set<String> expected = new TreeSet<>(purchaseIds);
        Duration left = Duration.between(Instant.now(), deadline);
        Waits.polling(
                        Duration.ofMillis(200),
                        "%s paused after %s, expected %s".formatted(worker, activityType, expected))
                .atMost(left.compareTo(ONE_LOOK) > 0 ? left : ONE_LOOK)
                .until(() -> system.pausedAfter(worker, activityType), expected::equals);
    }

    /**
     * Waits until each purchase's marker of the local step {@code activityType} was recorded by the
     * worker's workflow task. The step ran again in the task that now pauses in a later local step;
     * the SDK records the ended steps when it heartbeats that task (at 80 % of its timeout), and only
     * a kill after that leaves the step's marker to this worker rather than to the next one.
     */
    private static void awaitRecordedBy(String worker, String activityType, List<String> purchaseIds) {
        long pid = system.pid(worker);
        Waits.polling(
                        Duration.ofMillis(200),
                        "%s (pid %d) recorded %s of %s".formatted(worker, pid, activityType, purchaseIds))
                .atMost(STEP_TIMEOUT)
                .until(
                        () -> purchaseIds.stream()
                                .filter(id -> ActivityAttempts.localEnded(system.history(id), activityType)
                                        .filter(step -> ActivityAttempts.pid(step.identity()) == pid)
                                        .isPresent())
                                .count(),
                        recorded -> recorded == purchaseIds.size());
    }

    /**
     * Waits until Temporal shows each purchase's {@code activityType} started by the worker (identity
     * {@code pid@host}) and not ended, then kills the worker: the kill lands on that work.
     */
    private static Held killHolding(String worker, String activityType, List<String> purchaseIds) throws Exception {
        long pid = system.pid(worker);
        Map<String, Integer> held = Waits.polling(
                        Duration.ofMillis(200),
                        "%s (pid %d) holds %s of %s".formatted(worker, pid, activityType, purchaseIds))
                .atMost(STEP_TIMEOUT)
                .until(() -> heldBy(pid, activityType, purchaseIds), only -> only.size() >= purchaseIds.size());
        system.killWorker(worker);
        return new Held(activityType, pid, held);
    }

    /** The purchases whose {@code activityType} runs, started by the worker of {@code pid}: their attempt. */
    private static Map<String, Integer> heldBy(long pid, String activityType, List<String> purchaseIds) {
        Map<String, Integer> held = new TreeMap<>();
        for (String id : purchaseIds) {
            if (LOCAL_STEPS.contains(activityType)) {
                WorkflowExecutionHistory history = system.history(id);
                ActivityAttempts.workflowTaskRunningOn(history)
                        .filter(identity -> ActivityAttempts.pid(identity) == pid)
                        .filter(identity -> ActivityAttempts.localEnded(history, activityType)
                                .isEmpty())
                        .ifPresent(identity -> held.put(id, 0));
                continue;
            }
            ActivityAttempts.running(system.describe(id), activityType)
                    .filter(activity -> activity.getState() == PendingActivityState.PENDING_ACTIVITY_STATE_STARTED)
                    .filter(activity -> ActivityAttempts.pid(activity.getLastWorkerIdentity()) == pid)
                    .ifPresent(activity -> held.put(id, activity.getAttempt()));
        }
        return held;
    }

    /**
     * Each purchase's activity the killed worker held ended on a later attempt, started by {@code
     * successor}: the kill interrupted it and another worker repeated it.
     */
    private static void assertRepeatedBy(Held killed, String successor) {
        if (LOCAL_STEPS.contains(killed.activityType())) {
            assertLocalStepRepeatedBy(killed, successor);
            return;
        }
        for (Map.Entry<String, Integer> interrupted : killed.attempts().entrySet()) {
            ActivityTaskStartedEventAttributes ended = ActivityAttempts.endedStart(
                            system.history(interrupted.getKey()), killed.activityType())
                    .orElseThrow();
            assertThat(ended.getAttempt())
                    .as(
                            "%s of %s ended after the attempt the killed pid %d held",
                            killed.activityType(), interrupted.getKey(), killed.pid())
                    .isGreaterThan(interrupted.getValue());
            assertThat(ActivityAttempts.pid(ended.getIdentity()))
                    .as("%s of %s ended by %s", killed.activityType(), interrupted.getKey(), successor)
                    .isNotEqualTo(killed.pid())
                    .isEqualTo(system.pid(successor));
        }
    }

    /**
     * Each purchase's workflow task that ran the killed worker's local step timed out, and the step's
     * marker was recorded by {@code successor}: the kill interrupted it and another worker ran it again.
     */
    private static void assertLocalStepRepeatedBy(Held killed, String successor) {
        for (String interrupted : killed.attempts().keySet()) {
            WorkflowExecutionHistory history = system.history(interrupted);
            assertThat(ActivityAttempts.timedOutWorkflowTasks(history))
                    .as("workflow tasks of %s that timed out", interrupted)
                    .anyMatch(identity -> ActivityAttempts.pid(identity) == killed.pid());
            ActivityAttempts.LocalStep ended =
                    ActivityAttempts.localEnded(history, killed.activityType()).orElseThrow();
            assertThat(ActivityAttempts.pid(ended.identity()))
                    .as("%s of %s ended by %s", killed.activityType(), interrupted, successor)
                    .isNotEqualTo(killed.pid())
                    .isEqualTo(system.pid(successor));
        }
    }
}
