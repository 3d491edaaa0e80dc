package io.flashsale.worker.temporal;

import io.flashsale.worker.WorkerProperties;
import io.temporal.spring.boot.WorkerOptionsCustomizer;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * Sticky execution on or off ({@link WorkerProperties#stickyExecution()}: {@code
 * flashsale.worker.sticky-execution}, env {@code WORKER_STICKY_EXECUTION}, default on). On, Temporal
 * sends a workflow's next task to the worker that holds it in its cache, and to any worker once that
 * one has not picked it up within the sticky schedule-to-start timeout (5 s). Off, the worker
 * completes its workflow tasks without sticky attributes (the SDK sends none when that timeout is
 * zero), so every workflow task goes to the shared task queue and any worker replays the history.
 * Off is for Temporal's dev test server with several workers: it never moves a task off a dead
 * worker's sticky queue.
 *
 * <p>The SDK still polls the worker's own sticky queue, which then stays empty; the cache cannot be
 * turned off (a size of 0 means the default).
 */
@Component
public class StickyExecution implements WorkerOptionsCustomizer {

    private final boolean enabled;

    StickyExecution(WorkerProperties properties) {
        this.enabled = properties.stickyExecution();
    }

    @Override
    public WorkerOptions.Builder customize(WorkerOptions.Builder options, String workerName, String taskQueue) {
        return enabled ? options : options.setStickyQueueScheduleToStartTimeout(Duration.ZERO);
    }
}
