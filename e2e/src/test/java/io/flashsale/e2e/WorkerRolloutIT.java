package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.launcher.WorkerDeployment;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.stores.testing.TestSales;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.VersioningBehavior;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A new worker build rolled out in the middle of a sale, by Worker Versioning: purchases started on
 * build a are pinned to it and finish there (paid, or expired) while build b is ramped to half of
 * the new purchases and then made current; a's workers die while its purchases still need them,
 * which then wait past their deadlines and finish once a worker of a is back; a is stopped once no
 * purchase pinned to it runs. What ran where is read from Temporal: each purchase's pinned version and the build
 * of every workflow task in its history. Nothing is lost or sold twice, every audit passes.
 */
@OwnWorkers
class WorkerRolloutIT extends RunningSystemTest {

    private static final Duration PAY_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private static final Duration ROUTABLE_WITHIN = Duration.ofSeconds(60);

    @Test
    void purchasesFinishOnTheBuildThatStartedThemWhileANewBuildTakesOver() throws Exception {
        try (WorkerDeployment deployment = system.workerDeployment()) {
            rollOut(deployment);
        }
    }

    private void rollOut(WorkerDeployment deployment) throws Exception {
        system.startWorkers(Map.of("build-a", Map.of("FLASHSALE_WORKER_BUILD_ID", "a")));
        deployment.makeCurrent("a", ROUTABLE_WITHIN);
        // a's purchases still await payment when a's workers die, however slow the box
        Sale onA = sale(6, Duration.ofSeconds(90));
        List<String> startedOnA = onA.buy("a-buyer", 6);
        onA.purchases.pay(startedOnA.subList(0, 3));

        system.startWorkers(Map.of("build-b", Map.of("FLASHSALE_WORKER_BUILD_ID", "b")));
        deployment.ramp("b", 50, ROUTABLE_WITHIN);
        assertThat(deployment.builds())
                .extracting(WorkerDeployment.Build::toString)
                .containsExactlyInAnyOrder("a current", "b ramping 50.0 %");
        Sale ramped = sale(30, PAY_TIMEOUT);
        List<String> startedRamped = ramped.buy("r-buyer", 30);
        Map<String, List<String>> rampedBy =
                startedRamped.stream().collect(Collectors.groupingBy(id -> pinnedBuild(system.describe(id))));
        Instant lastDeadlineOnA = startedOnA.subList(3, 6).stream()
                .map(id -> onA.purchases.firstDeadline(List.of(id)))
                .max(Instant::compareTo)
                .orElseThrow();

        // a's workers die while purchases pinned to a still need them; b becomes current meanwhile
        system.killWorker("build-a");
        List<String> waitingForA = new ArrayList<>(startedOnA.subList(3, 6));
        rampedBy.getOrDefault("a", List.of()).stream()
                .filter(WorkerRolloutIT::running)
                .forEach(waitingForA::add);
        deployment.makeCurrent("b", ROUTABLE_WITHIN);
        Sale onB = sale(6, PAY_TIMEOUT);
        List<String> startedOnB = onB.buy("b-buyer", 6);
        onB.purchases.pay(startedOnB.subList(0, 3));

        assertThat(rampedBy.keySet()).containsExactlyInAnyOrder("a", "b");
        assertThat(rampedBy.get("b")).as("about half of %s", rampedBy).hasSizeBetween(7, 23);
        assertThat(builds(startedOnB)).as("started once b was current").isEqualTo(Set.of("b"));
        // a's purchases wait, even past their deadlines, for a worker of a (b never takes them); a
        // status read, a query, needs a worker of a too: 503
        Thread.sleep(
                Math.max(0, Duration.between(Instant.now(), lastDeadlineOnA).toMillis()) + 3000);
        assertThat(waitingForA).allMatch(WorkerRolloutIT::running);
        assertReportedRunningOn(deployment, "a", waitingForA.size());
        assertThat(onA.purchases.statuses(startedOnA.subList(3, 6))).isEqualTo(Map.of("503", 3L));
        system.startWorkers(Map.of("build-a-again", Map.of("FLASHSALE_WORKER_BUILD_ID", "a")));
        onA.purchases.awaitStatus(startedOnA.subList(3, 6), "EXPIRED", PATIENCE);
        ramped.purchases.awaitStatus(rampedBy.get("a"), "EXPIRED", PATIENCE);
        assertThat(runningOn("a", List.of(startedOnA, startedRamped, startedOnB)))
                .as("a drained")
                .isZero();
        assertReportedRunningOn(deployment, "a", 0);
        system.killWorker("build-a-again");

        assertThat(onA.purchases.statuses(startedOnA)).isEqualTo(Map.of("PAID", 3L, "EXPIRED", 3L));
        assertThat(builds(startedOnA))
                .as("every task of a's purchases ran on a")
                .isEqualTo(Set.of("a"));
        onB.purchases.awaitStatus(startedOnB.subList(3, 6), "EXPIRED", PATIENCE);
        assertThat(onB.purchases.statuses(startedOnB)).isEqualTo(Map.of("PAID", 3L, "EXPIRED", 3L));
        assertThat(builds(startedOnB)).isEqualTo(Set.of("b"));
        for (Sale sale : List.of(onA, ramped, onB)) {
            AuditReport audit = Audits.report(api.audit(TestTokens.admin(), sale.id));
            assertThat(audit.result()).as("%s", audit.violations()).isEqualTo(AuditVerdict.PASS);
        }
    }

    /**
     * What an operator reads before stopping a build ({@code bin/flashsale worker status}): how many
     * workflows pinned to it still run, which visibility reports a moment late.
     */
    private static void assertReportedRunningOn(WorkerDeployment deployment, String build, long expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (deployment.runningOn(build) != expected && System.nanoTime() < deadline) {
            Thread.sleep(500);
        }
        assertThat(deployment.runningOn(build))
                .as("purchases pinned to %s running", build)
                .isEqualTo(expected);
    }

    private static boolean running(String purchaseId) {
        return system.describe(purchaseId).getWorkflowExecutionInfo().getStatus()
                == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
    }

    /** The builds that completed any workflow task of these purchases, each pinned to the one it ran on. */
    private static Set<String> builds(List<String> purchaseIds) {
        Set<String> builds = new TreeSet<>();
        for (String id : purchaseIds) {
            DescribeWorkflowExecutionResponse described = system.describe(id);
            assertThat(described.getWorkflowExecutionInfo().getVersioningInfo().getBehavior())
                    .isEqualTo(VersioningBehavior.VERSIONING_BEHAVIOR_PINNED);
            builds.add(pinnedBuild(described));
            system.history(id).getEvents().stream()
                    .filter(event -> event.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
                    .map(event -> event.getWorkflowTaskCompletedEventAttributes()
                            .getDeploymentVersion()
                            .getBuildId())
                    .forEach(builds::add);
        }
        return builds;
    }

    private static String pinnedBuild(DescribeWorkflowExecutionResponse described) {
        return described
                .getWorkflowExecutionInfo()
                .getVersioningInfo()
                .getDeploymentVersion()
                .getBuildId();
    }

    private static long runningOn(String build, List<List<String>> purchaseIds) {
        return purchaseIds.stream()
                .flatMap(List::stream)
                .map(system::describe)
                .filter(d -> d.getWorkflowExecutionInfo().getStatus()
                        == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING)
                .filter(d -> pinnedBuild(d).equals(build))
                .count();
    }

    private static Sale sale(int units, Duration payTimeout) {
        String id = TestSales.newId();
        assertThat(api.createSale(TestTokens.admin(), id, units, payTimeout).status())
                .isEqualTo(201);
        return new Sale(id, new Purchases(api, id));
    }

    private record Sale(String id, Purchases purchases) {

        /** Every buyer admitted, each purchase awaiting payment. */
        List<String> buy(String prefix, int buyers) throws InterruptedException {
            List<String> users = Purchases.users(prefix, buyers);
            purchases.race(users).forEach(answer -> answer.assertStatus(202));
            List<String> ids = purchases.purchaseIds(users);
            purchases.awaitStatus(ids, "PENDING_PAYMENT", PATIENCE);
            return ids;
        }
    }
}
