package io.flashsale.worker.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import com.uber.m3.tally.RootScopeBuilder;
import com.uber.m3.tally.Scope;
import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseMetrics;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.common.reporter.MicrometerClientStatsReporter;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The workflow's business meters reach Micrometer through Temporal's metrics scope, as they do on
 * the worker's {@code /actuator/prometheus}: one purchase paid, one expired, each counted once; the
 * buyer's wait from admission to order timed once, for the purchase whose admission time is known.
 */
class WorkflowMetricsIT extends WorkflowIntegrationTest {

    SimpleMeterRegistry meters;
    Scope scope;

    @Override
    protected TestWorkflowEnvironment startTemporal() {
        meters = new SimpleMeterRegistry();
        // reported only when the scope closes: the assertions see everything at once
        scope = new RootScopeBuilder()
                .reporter(new MicrometerClientStatsReporter(meters))
                .reportEvery(com.uber.m3.util.Duration.ofSeconds(3600));
        return TemporalTestEnvironment.start(
                TestEnvironmentOptions.newBuilder().setMetricsScope(scope).build(), reservations, orders);
    }

    @Test
    void countsTransitionsAndCompensationsOncePerPurchase() throws Exception {
        PurchaseRequest alice = fixture.admit(sale, "alice");
        // admitted 2 s before its workflow starts; bob's admission time is unknown (0)
        PurchaseRequest paid = new PurchaseRequest(
                alice.purchaseId(),
                alice.saleId(),
                alice.userId(),
                alice.payTimeoutSeconds(),
                env.currentTimeMillis() - 2000);
        PurchaseRequest bob = fixture.admit(sale, "bob");
        PurchaseRequest expired =
                new PurchaseRequest(bob.purchaseId(), bob.saleId(), bob.userId(), bob.payTimeoutSeconds());
        PurchaseStarter starter = new PurchaseStarter(env.getWorkflowClient());
        assertThat(starter.start(paid)).isTrue();
        assertThat(starter.start(expired)).isTrue();
        awaitPayment(paid).pay(new PaymentRequest("pay-alice"));
        awaitPayment(expired);
        assertThat(result(paid).status()).isEqualTo(PurchaseStatus.PAID);
        env.sleep(Duration.ofSeconds(expired.payTimeoutSeconds()));
        assertThat(result(expired).status()).isEqualTo(PurchaseStatus.EXPIRED);

        scope.close();

        assertThat(count(PurchaseMetrics.TRANSITIONS, "status", "PENDING_PAYMENT"))
                .isEqualTo(2);
        assertThat(count(PurchaseMetrics.TRANSITIONS, "status", "PAID")).isEqualTo(1);
        assertThat(count(PurchaseMetrics.TRANSITIONS, "status", "EXPIRED")).isEqualTo(1);
        assertThat(count(PurchaseMetrics.TRANSITIONS, "status", "CANCELLED")).isZero();
        assertThat(count(PurchaseMetrics.TRANSITIONS, "status", "REJECTED")).isZero();
        assertThat(count(PurchaseMetrics.COMPENSATIONS, "step", "cancel_order")).isEqualTo(1);
        assertThat(count(PurchaseMetrics.COMPENSATIONS, "step", "release_reservation"))
                .isEqualTo(1);
        assertThat(meters.find(PurchaseMetrics.ADMISSION_TO_ORDER).timers())
                .as("alice's wait from admission to order, once; none for bob")
                .singleElement()
                .satisfies(timer -> {
                    assertThat(timer.count()).isEqualTo(1);
                    assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(2000);
                });
        assertThat(meters.find(PurchaseMetrics.TRANSITIONS).counters())
                .as("tagged by the SDK with the workflow type")
                .allSatisfy(counter ->
                        assertThat(counter.getId().getTag("workflow_type")).isEqualTo("PurchaseWorkflow"));
    }

    /** Summed over the SDK's other tags (namespace, task queue, workflow type). */
    private double count(String name, String tag, String value) {
        return meters.find(name).tag(tag, value).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }
}
