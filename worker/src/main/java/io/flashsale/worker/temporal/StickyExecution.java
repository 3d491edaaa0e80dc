package io.flashsale.worker.temporal;

import io.temporal.spring.boot.WorkerOptionsCustomizer;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Sticky execution follows the workflow cache. With cached workflows (the default) Temporal sends a
 * workflow's next task to the worker that holds it in memory, and to any worker once that one has
 * not picked it up within the sticky schedule-to-start timeout (5 s). With the cache off
 * ({@code WORKER_WORKFLOW_CACHE=0}) stickiness buys nothing (every task replays the history anyway)
 * and is turned off too: the worker asks for no sticky queue, so every workflow task goes to the
 * shared task queue. That is what makes a worker killed by SIGKILL harmless on Temporal's dev test
 * server, which never moves a task off a dead worker's sticky queue.
 */
@Component
public class StickyExecution implements WorkerOptionsCustomizer {

    private final boolean cacheEnabled;

    public StickyExecution(@Value("${spring.temporal.workflow-cache.max-instances:600}") int cachedWorkflows) {
        this.cacheEnabled = cachedWorkflows > 0;
    }

    @Override
    public WorkerOptions.Builder customize(WorkerOptions.Builder options, String workerName, String taskQueue) {
        if (cacheEnabled) {
            return options;
        }
        // the SDK sends no sticky attributes when this timeout is zero
        return options.setStickyQueueScheduleToStartTimeout(Duration.ZERO);
    }
}
