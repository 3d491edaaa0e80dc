package io.flashsale.stores.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.testkit.FreePorts;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/** Readiness goes DOWN, without hanging, when nothing answers at the Temporal address. */
class TemporalHealthIndicatorTest {

    @Test
    void downWhenTemporalIsUnreachable() throws IOException {
        String target = "127.0.0.1:" + FreePorts.next();
        WorkflowServiceStubs stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget(target)
                .setRpcTimeout(Duration.ofSeconds(2))
                .build());
        try {
            long started = System.nanoTime();

            Health health = new TemporalHealthIndicator(stubs).health();

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsKey("error");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        } finally {
            stubs.shutdownNow();
        }
    }
}
