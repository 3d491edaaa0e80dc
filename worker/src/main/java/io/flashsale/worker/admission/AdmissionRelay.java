package io.flashsale.worker.admission;

import io.flashsale.stores.admission.AdmissionEntry;
import io.flashsale.stores.admission.AdmissionStream;
import io.flashsale.stores.admission.RelaySales;
import io.flashsale.stores.admission.RelaySales.RelaySale;
import io.flashsale.stores.admission.StreamBacklog;
import io.flashsale.worker.WorkerProperties;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Makes sure every admission has its workflow. The api writes each admission to its sale's stream
 * (the outbox) in the same Lua call that takes the unit; this relay reads the streams through a
 * consumer group, starts the workflow (idempotent: workflow id = purchase id) and only then acks.
 * It closes the window "Redis reserved, then the api died before the start" and carries admissions
 * over a Temporal outage. Entries left pending by a dead consumer are claimed after {@code
 * claimIdle}. It is the safety net, not the fast path: the api starts the workflows of the buyers it
 * admitted and the relay takes only what is older than {@code handoff} ({@link #isDue}).
 */
class AdmissionRelay implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AdmissionRelay.class);

    /** Batches of new entries read from one sale in one pass, so one sale cannot hold up the others long. */
    private static final int MAX_BATCHES = 20;

    private final AdmissionStream stream;
    private final PurchaseStarter starter;
    private final WorkerProperties.Relay settings;
    private final Timer lag;
    private final Counter started;
    private final MeterRegistry meters;
    private final RelayBacklogMeters backlog;
    private final RelaySales sales;
    /** Sales where a pass left admissions younger than the handoff pending with this relay. */
    private final Set<String> youngPending = ConcurrentHashMap.newKeySet();

    private volatile boolean indexed;
    private Instant nextConsumerCleanup = Instant.EPOCH;
    private ScheduledExecutorService executor;
    private final ThreadPoolExecutor startPool;

    AdmissionRelay(
            AdmissionStream stream,
            RelaySales sales,
            PurchaseStarter starter,
            WorkerProperties.Relay settings,
            MeterRegistry meters) {
        this.stream = stream;
        this.sales = sales;
        this.starter = starter;
        this.settings = settings;
        this.lag = Timer.builder("flashsale.relay.lag")
                .description("time from admission to the relay handling it")
                .register(meters);
        this.started = meters.counter("flashsale.relay.started");
        this.meters = meters;
        this.backlog = new RelayBacklogMeters(meters);
        this.startPool = startPool(settings.startConcurrency());
    }

    /** Threads for concurrent starts; idle ones end after a while, so an idle relay holds none. */
    private static ThreadPoolExecutor startPool(int concurrency) {
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                concurrency, concurrency, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread thread = new Thread(r, "relay-start-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * One pass over the sales that can still have admissions in flight ({@link RelaySales}). Each
     * sale on its own: an error on one (its keys gone, Redis
     * refusing a command) is counted and logged, and the pass goes on with the next sale.
     */
    int relayOnce() {
        indexLoadedSalesOnce();
        Instant endedLongAgo = Instant.now().minus(settings.grace());
        boolean removeIdleConsumers = consumerCleanupDue();
        int relayed = 0;
        for (RelaySale sale : sales.all()) {
            relayed += relayIsolated(sale, endedLongAgo, removeIdleConsumers);
        }
        return relayed;
    }

    /** Once every {@code consumerIdle}, a pass also removes the consumers of stopped relays. */
    private boolean consumerCleanupDue() {
        Instant now = Instant.now();
        if (now.isBefore(nextConsumerCleanup)) {
            return false;
        }
        nextConsumerCleanup = now.plus(settings.consumerIdle());
        return true;
    }

    /** Sales loaded by an earlier version join the relay's sales (a marker check on the first pass only). */
    private void indexLoadedSalesOnce() {
        if (!indexed) {
            sales.indexLoadedSalesOnce();
            indexed = true;
        }
    }

    private int relayIsolated(RelaySale sale, Instant endedLongAgo, boolean removeIdleConsumers) {
        String saleId = sale.id();
        try {
            StreamBacklog waiting = stream.backlog(saleId);
            // reported before relaying too: while every start fails (Temporal down) the pass ends
            // in the catch below, and the backlog is what the alerts must see growing
            backlog.record(saleId, waiting);
            int relayed = 0;
            if (isDue(waiting) || youngPending.contains(saleId)) {
                relayed = relaySale(saleId);
                waiting = stream.backlog(saleId);
            }
            if (removeIdleConsumers) {
                stream.removeIdleConsumers(saleId, settings.consumer(), settings.consumerIdle());
            }
            backlog.record(saleId, waiting);
            forgetIfDone(sale, waiting, endedLongAgo);
            return relayed;
        } catch (RuntimeException e) {
            // entries stay pending and are retried on a later pass
            meters.counter("flashsale.relay.sale.errors", "sale", saleId).increment();
            log.warn("admission relay failed on saleId={}, will retry: {}", saleId, e.toString());
            return 0;
        }
    }

    /**
     * The api that admitted a buyer starts the workflow itself within milliseconds and drops the
     * entry; an entry still there after {@code handoff} is the relay's (the api died, its queue was
     * full, Temporal was down). So an idle sale costs one read-only command per pass (backlog.lua),
     * and a burst is not started twice.
     */
    private boolean isDue(StreamBacklog waiting) {
        return isDue(waiting.oldestAge(Instant.now()));
    }

    /** An entry older than the handoff: the api gave it up (StartQueue), it is the relay's. */
    private boolean isDue(AdmissionEntry entry, Instant now) {
        return isDue(Duration.between(StreamBacklog.admittedAt(entry.entryId()), now));
    }

    private boolean isDue(Duration age) {
        return age.compareTo(settings.handoff()) >= 0;
    }

    /**
     * What this relay left unfinished (e.g. Temporal was down) or read before it was due, then
     * entries of dead consumers, then new ones. Entries read that are younger than the handoff stay
     * pending with this relay, unstarted: the api is starting them. The sale is visited again on the
     * next pass, which acknowledges those the api started and deleted, and starts those come due.
     */
    private int relaySale(String saleId) {
        youngPending.remove(saleId);
        int relayed = relay(saleId, stream.readOwnPending(saleId, settings.consumer(), settings.batchSize()));
        relayed += relay(
                saleId, stream.claimIdle(saleId, settings.consumer(), settings.claimIdle(), settings.batchSize()));
        return relayed + relayNew(saleId);
    }

    /**
     * New entries, batch after batch while batches come full and due (at most {@code MAX_BATCHES} a
     * pass): entries come in the order they were admitted, so after a young one all are young.
     */
    private int relayNew(String saleId) {
        int relayed = 0;
        for (int batch = 0; batch < MAX_BATCHES; batch++) {
            List<AdmissionEntry> entries = stream.readNew(saleId, settings.consumer(), settings.batchSize());
            int started = relay(saleId, entries);
            relayed += started;
            if (entries.size() < settings.batchSize() || started < entries.size()) {
                break;
            }
        }
        return relayed;
    }

    /**
     * A sale ended longer than the grace ago with nothing left in its stream is not visited again.
     * The end is the sale's own (its meta), not only the index's: a move whose index write was lost
     * leaves an old end in the index, which is mended here instead of dropping an open sale.
     */
    private void forgetIfDone(RelaySale sale, StreamBacklog left, Instant endedLongAgo) {
        if (sale.endedBefore(endedLongAgo) && left.entries() == 0) {
            Optional<RelaySale> loaded = sales.asLoaded(sale.id());
            if (loaded.isPresent() && !loaded.get().endedBefore(endedLongAgo)) {
                sales.add(sale.id(), loaded.get().closes());
                return;
            }
            sales.forget(sale.id());
            backlog.forget(sale.id());
            youngPending.remove(sale.id());
            log.info("admission relay no longer visits saleId={}: ended {}", sale.id(), sale.closes());
        }
    }

    /**
     * Starts the workflows of the entries older than the handoff, up to {@code startConcurrency} at
     * once, and acknowledges each started one; the younger ones stay pending with this relay. A
     * failed start leaves its entry pending for a later pass and fails this one, once every other
     * start of the batch has ended.
     *
     * @return the entries started
     */
    private int relay(String saleId, List<AdmissionEntry> entries) {
        Instant now = Instant.now();
        List<AdmissionEntry> due =
                entries.stream().filter(entry -> isDue(entry, now)).toList();
        if (due.size() < entries.size()) {
            youngPending.add(saleId);
        }
        List<CompletableFuture<Void>> starts = due.stream()
                .map(entry -> CompletableFuture.runAsync(() -> startAndAcknowledge(saleId, entry), startPool))
                .toList();
        try {
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : e;
        }
        return due.size();
    }

    private void startAndAcknowledge(String saleId, AdmissionEntry entry) {
        boolean started;
        try {
            started = starter.start(new PurchaseRequest(
                    entry.purchaseId(),
                    entry.saleId(),
                    entry.userId(),
                    entry.payTimeoutSeconds(),
                    StreamBacklog.admittedAt(entry.entryId()).toEpochMilli()));
        } catch (PurchaseStarter.EarlierRunStillOpen waitForIt) {
            // the buyer's rejected run is still closing: this entry stays pending for a later pass,
            // and the rest of the sale's entries go on
            log.info("relay leaves purchaseId={} for a later pass: {}", entry.purchaseId(), waitForIt.getMessage());
            return;
        }
        lag.record(Duration.ofMillis(Math.max(
                0,
                System.currentTimeMillis()
                        - StreamBacklog.admittedAt(entry.entryId()).toEpochMilli())));
        if (started) {
            this.started.increment();
            log.info("relay started purchaseId={} workflowId={}", entry.purchaseId(), entry.purchaseId());
        }
        stream.done(saleId, entry.entryId());
    }

    private void safePass() {
        try {
            relayOnce();
        } catch (RuntimeException e) {
            // Redis or Temporal unavailable: entries stay pending and are retried on a later pass
            log.warn("admission relay pass failed, will retry: {}", e.toString());
        }
    }

    @Override
    public void start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "admission-relay"));
        long period = settings.pollInterval().toMillis();
        executor.scheduleWithFixedDelay(this::safePass, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor = null;
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }
}
