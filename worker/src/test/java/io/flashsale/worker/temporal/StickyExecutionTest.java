package io.flashsale.worker.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.worker.WorkerProperties;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the customizer sets; that the starter applies it shows in the e2e WorkerCrashIT. */
class StickyExecutionTest {

    @Test
    void offSetsAZeroStickyTimeoutSoTheSdkSendsNoStickyAttributes() {
        WorkerOptions options = new StickyExecution(sticky(false))
                .customize(WorkerOptions.newBuilder(), "worker", "flashsale-purchase")
                .build();

        assertThat(options.getStickyQueueScheduleToStartTimeout()).isEqualTo(Duration.ZERO);
    }

    @Test
    void onLeavesTheSdkDefaultStickyTimeout() {
        WorkerOptions options = new StickyExecution(sticky(true))
                .customize(WorkerOptions.newBuilder(), "worker", "flashsale-purchase")
                .build();

        assertThat(options.getStickyQueueScheduleToStartTimeout())
                .isEqualTo(WorkerOptions.newBuilder().build().getStickyQueueScheduleToStartTimeout())
                .isNotEqualTo(Duration.ZERO);
    }

    private static WorkerProperties sticky(boolean enabled) {
        return new WorkerProperties(null, null, null, null, enabled, null);
    }
}
