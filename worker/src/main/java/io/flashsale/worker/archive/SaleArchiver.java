package io.flashsale.worker.archive;

import io.flashsale.stores.sale.SaleArchive;
import io.flashsale.stores.sale.SaleArchive.Outcome;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.worker.WorkerProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Ended sales leave nothing behind in Redis: every {@code interval} this archives the Redis side of
 * sales that ended longer than {@code after} ago once all their purchases are final ({@link
 * SaleArchive}). Every worker runs it; two workers archiving the same sale do it once (the archive is
 * idempotent by sale id). A sale that is not final yet is tried again on the next pass; each outcome
 * is counted in {@code flashsale.archive.sales{outcome}}.
 */
class SaleArchiver implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SaleArchiver.class);

    private final SaleRepository sales;
    private final SaleArchive archive;
    private final WorkerProperties.Archive settings;
    private final MeterRegistry meters;
    private ScheduledExecutorService executor;

    SaleArchiver(SaleRepository sales, SaleArchive archive, WorkerProperties.Archive settings, MeterRegistry meters) {
        this.sales = sales;
        this.archive = archive;
        this.settings = settings;
        this.meters = meters;
    }

    /** One pass over the sales ended longer than {@code after} ago that still live in Redis. */
    Map<Outcome, Integer> archiveOnce() {
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        Instant endedBefore = Instant.now().minus(settings.after());
        for (String saleId : sales.endedInRedis(endedBefore, settings.batchSize())) {
            Outcome outcome = archive.archiveIfFinal(saleId, settings.marker());
            outcomes.merge(outcome, 1, Integer::sum);
            meters.counter("flashsale.archive.sales", "outcome", outcome.name()).increment();
            log.info("sale archive saleId={} outcome={}", saleId, outcome);
        }
        return outcomes;
    }

    private void safePass() {
        try {
            archiveOnce();
        } catch (RuntimeException e) {
            // MySQL or Redis unavailable: the sales stay as they are and are tried on a later pass
            log.warn("sale archive pass failed, will retry: {}", e.toString());
        }
    }

    @Override
    public void start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "sale-archiver"));
        long period = settings.interval().toMillis();
        executor.scheduleWithFixedDelay(this::safePass, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        executor.shutdownNow();
        executor = null;
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }
}
