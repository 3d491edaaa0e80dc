package io.flashsale.worker.lifecycle;

import io.flashsale.worker.WorkerProperties;
import io.temporal.worker.WorkerFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * On shutdown (SIGTERM), before MySQL and Redis connections close: stop polling, let the tasks in
 * flight finish within the drain timeout, then let the process exit. Whatever does not finish is
 * retried by Temporal on another worker after its timeout; nothing is lost either way.
 */
@Component
class GracefulShutdown implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(GracefulShutdown.class);

    private final WorkerFactory workers;
    private final WorkerProperties properties;
    private volatile boolean running;

    GracefulShutdown(WorkerFactory workers, WorkerProperties properties) {
        this.workers = workers;
        this.properties = properties;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        log.info("stopping Temporal pollers, draining in-flight tasks for up to {}", properties.drainTimeout());
        workers.shutdown();
        workers.awaitTermination(properties.drainTimeout().toMillis(), TimeUnit.MILLISECONDS);
        log.info("worker drained: {}", workers.isTerminated() ? "all tasks finished" : "drain timeout reached");
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops among the first, while data sources are still open. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1;
    }
}
