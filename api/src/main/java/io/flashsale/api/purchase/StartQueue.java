package io.flashsale.api.purchase;

import io.flashsale.api.ApiProperties;
import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.StreamBacklog;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.tracing.Tracer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Starts admitted buyers' workflows off the request thread. The buyer's 202 rests on the admission
 * entry admit.lua wrote in the same atomic step that took the unit (the outbox, durable with Redis'
 * AOF); this pipeline only turns entries into workflows: at most {@code concurrency} starts at once,
 * at most {@code queueCapacity} waiting. When the queue is full, a start fails (Temporal down), or
 * an admission waited {@code giveUpAfter} for its start (Temporal slower than the buyers come), the
 * entry stays in the sale's stream and the worker's relay starts it: back-pressure never reaches the
 * buyer, and the relay, which takes only admissions older than its handoff, starts none twice. A
 * started workflow's entry is dropped (XDEL), so the relay has nothing to do.
 * A start runs in the trace of the request that admitted the buyer: the workflow's spans, on the
 * worker, join the request's trace. The admissions of a sale {@link #rehearse rehearsed} (the
 * warm-up's private sale, which no list and so no relay knows) become no purchase: the first of them
 * are started and deleted at once ({@link PurchaseStarter#rehearse}), the rest start nothing.
 */
@Component
public class StartQueue implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StartQueue.class);

    private final PurchaseStarter starter;
    private final AdmissionGate gate;
    private final ApiProperties.Starts settings;
    private final Timer lag;
    private final Counter queueFull;
    private final Counter failed;
    private final Counter givenUp;
    private final Tracer tracer;
    private final Map<String, Rehearsal> rehearsals = new ConcurrentHashMap<>();
    private ThreadPoolExecutor executor;

    StartQueue(
            PurchaseStarter starter,
            AdmissionGate gate,
            ApiProperties properties,
            MeterRegistry meters,
            ObjectProvider<Tracer> tracer) {
        this.starter = starter;
        this.tracer = tracer.getIfAvailable(() -> Tracer.NOOP);
        this.gate = gate;
        this.settings = properties.starts();
        this.lag = Timer.builder("flashsale.admission.start.lag")
                .description("time from the admission (its outbox entry) to its workflow started by the api")
                .publishPercentileHistogram()
                .register(meters);
        this.queueFull = deferredStarts(meters, "queue-full");
        this.failed = deferredStarts(meters, "start-failed");
        this.givenUp = deferredStarts(meters, "waited");
    }

    /** Admissions whose workflow start this api left to the relay, by why. */
    private static Counter deferredStarts(MeterRegistry meters, String reason) {
        return Counter.builder("flashsale.admissions.deferred.starts")
                .description("admissions whose workflow start the api left to the worker's relay")
                .tag("reason", reason)
                .register(meters);
    }

    /**
     * The admissions of {@code saleId} start no purchase, for the api's lifetime (a request still
     * running after the warm-up ended it starts none either): the first {@code starts} of them are
     * rehearsed on the start threads, the rest start nothing. For the warm-up's own sale, whose id
     * is random, so no buyer's sale can be rehearsed.
     */
    public Rehearsal rehearse(String saleId, int starts) {
        Rehearsal rehearsal = new Rehearsal(starts);
        rehearsals.put(saleId, rehearsal);
        return rehearsal;
    }

    /** Queues the admission's workflow start; a full queue leaves it to the relay. Never blocks. */
    void submit(PurchaseId id, Admission admission) {
        Rehearsal rehearsal = rehearsals.get(id.saleId());
        if (rehearsal != null) {
            if (rehearsal.left.getAndDecrement() > 0 && !queue(() -> rehearse(rehearsal, id, admission))) {
                rehearsal.failed.incrementAndGet();
            }
            return;
        }
        if (!queue(() -> start(id, admission))) {
            queueFull.increment();
        }
    }

    /** Runs {@code start} on a start thread, in the caller's trace; false when the queue is full. */
    private boolean queue(Runnable start) {
        try {
            executor.execute(tracer.currentTraceContext().wrap(start));
            return true;
        } catch (RejectedExecutionException full) {
            return false;
        }
    }

    private void rehearse(Rehearsal rehearsal, PurchaseId id, Admission admission) {
        if (rehearsal.over) {
            rehearsal.failed.incrementAndGet();
            return;
        }
        try {
            starter.rehearse(request(id, admission));
            rehearsal.done.incrementAndGet();
        } catch (RuntimeException e) {
            // Temporal refuses or is away: the rest would only keep the start threads busy
            rehearsal.over = true;
            rehearsal.failed.incrementAndGet();
            log.debug("workflow start rehearsal failed purchaseId={}: {}", id.value(), e.toString());
        }
    }

    private static PurchaseRequest request(PurchaseId id, Admission admission) {
        return new PurchaseRequest(
                id.value(),
                id.saleId(),
                id.userId(),
                admission.payTimeoutSeconds(),
                StreamBacklog.admittedAt(admission.entryId()).toEpochMilli());
    }

    private void start(PurchaseId id, Admission admission) {
        try {
            PurchaseRequest request = request(id, admission);
            if (System.currentTimeMillis() - request.admittedAtMillis()
                    >= settings.giveUpAfter().toMillis()) {
                // the relay takes it once it is older than its handoff: one start, not two
                givenUp.increment();
                return;
            }
            starter.start(request);
            lag.record(Duration.ofMillis(Math.max(0, System.currentTimeMillis() - request.admittedAtMillis())));
            gate.forget(id.saleId(), admission.entryId());
        } catch (RuntimeException e) {
            // the admission stays in the sale's stream; the relay starts the workflow when it can
            failed.increment();
            log.warn("workflow start deferred to the relay purchaseId={}: {}", id.value(), e.toString());
        }
    }

    @Override
    public void start() {
        AtomicInteger threads = new AtomicInteger();
        executor = new ThreadPoolExecutor(
                settings.concurrency(),
                settings.concurrency(),
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(settings.queueCapacity()),
                r -> new Thread(r, "purchase-start-" + threads.incrementAndGet()),
                new ThreadPoolExecutor.AbortPolicy());
    }

    /** Starts what is queued for up to {@code drainTimeout}; what is left, the relay starts. */
    @Override
    public void stop() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(settings.drainTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                int left = executor.shutdownNow().size();
                log.info("{} queued workflow starts left to the relay at shutdown", left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return executor != null && !executor.isShutdown();
    }

    /**
     * Starts before and stops after the web server (its graceful shutdown and its stop run at higher
     * phases), so no admission can arrive while the pipeline is not there.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }

    /**
     * A sale's rehearsal (the warm-up's): how many of its admissions are still to be rehearsed, how
     * many were (started and deleted), how many failed or were dropped. It ends at its first failure
     * or when {@link #end ended}; what is still queued then is dropped, so buyers' starts never
     * wait behind it. The sale's admissions still start nothing.
     */
    public static final class Rehearsal {

        private final AtomicInteger left;
        private final AtomicInteger done = new AtomicInteger();
        private final AtomicInteger failed = new AtomicInteger();
        private volatile boolean over;

        Rehearsal(int starts) {
            this.left = new AtomicInteger(starts);
        }

        public void end() {
            over = true;
        }

        public int done() {
            return done.get();
        }

        public int failed() {
            return failed.get();
        }
    }
}
