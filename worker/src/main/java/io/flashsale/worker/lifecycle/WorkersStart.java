package io.flashsale.worker.lifecycle;

import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Starts the Temporal workers once the application is ready, as the starter does
 * ({@code spring.temporal.start-workers} is off), but does not give up while Temporal is
 * unreachable. The starter's start checks the namespace first and a failure there ended the
 * process: a worker started again while Temporal was down too (both killed at once, a rolling
 * restart) stayed down. Here a failed start is tried again every second until Temporal answers;
 * until then the health indicator {@code temporalWorkers} is DOWN, so the worker does not report
 * UP without polling. (Its bean name ends in {@code HealthIndicator}: the starter's own bean is
 * called {@code temporalWorkers}.)
 */
@Component("temporalWorkersHealthIndicator")
class WorkersStart implements ApplicationListener<ApplicationReadyEvent>, HealthIndicator, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(WorkersStart.class);
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final WorkerFactory workers;
    private final ScheduledExecutorService retries =
            Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "temporal-workers-start"));
    private volatile String waitingFor = "the application to be ready";

    WorkersStart(WorkerFactory workers) {
        this.workers = workers;
    }

    /** The first attempt on the caller's thread, as the starter's; the retries in the background. */
    @Override
    public void onApplicationEvent(ApplicationReadyEvent ready) {
        tryStart();
    }

    private void tryStart() {
        if (workers.isShutdown()) {
            return;
        }
        try {
            workers.start();
            waitingFor = null;
            log.info("Temporal workers started");
        } catch (RuntimeException unreachable) {
            if (workers.isShutdown()) {
                return;
            }
            if (!unreachable.toString().equals(waitingFor)) {
                log.warn("Temporal workers not started, trying again every {}: {}", RETRY, unreachable.toString());
            }
            waitingFor = unreachable.toString();
            retries.schedule(this::tryStart, RETRY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public Health health() {
        return workers.isStarted() && !workers.isShutdown()
                ? Health.up().build()
                : Health.down()
                        .withDetail("waitingFor", String.valueOf(waitingFor))
                        .build();
    }

    @Override
    public void destroy() {
        retries.shutdownNow();
    }
}
