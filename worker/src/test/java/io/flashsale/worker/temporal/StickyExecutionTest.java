package io.flashsale.worker.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StickyExecutionTest {

    @Test
    void withoutAWorkflowCacheNoTaskIsEverRoutedToAStickyQueue() {
        WorkerOptions options = new StickyExecution(0)
                .customize(WorkerOptions.newBuilder(), "worker", "flashsale-purchase")
                .build();

        assertThat(options.getStickyQueueScheduleToStartTimeout()).isEqualTo(Duration.ZERO);
    }

    @Test
    void withTheCacheOnTasksStickToTheirWorkerForTheSdkDefault() {
        WorkerOptions options = new StickyExecution(600)
                .customize(WorkerOptions.newBuilder(), "worker", "flashsale-purchase")
                .build();

        assertThat(options.getStickyQueueScheduleToStartTimeout())
                .isEqualTo(WorkerOptions.newBuilder().build().getStickyQueueScheduleToStartTimeout())
                .isNotEqualTo(Duration.ZERO);
    }
}
