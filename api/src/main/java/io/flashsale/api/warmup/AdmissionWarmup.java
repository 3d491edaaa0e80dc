package io.flashsale.api.warmup;

import io.flashsale.api.ApiProperties;
import io.flashsale.api.purchase.StartQueue;
import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.sale.Price;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleStock;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.web.context.WebServerApplicationContext;

/**
 * Ready means warm. A flash sale's burst is the first heavy use of the admission path, and a cold
 * JIT answers it slowly while its compiler threads take the cores. Before the api reports ready
 * (Spring Boot flips readiness once every runner is done), this sends {@code requests} purchase
 * requests to the api's own port, through the whole stack (Tomcat, security with token decoding
 * and its cache, the controller, the problem answers, the admission script), on three private
 * sales that no list knows: one not open yet (every request runs the Lua and is refused {@code
 * sale-not-open}), one sold out (the sold-out mark, then answers from memory) and one that admits
 * each buyer once ({@link #BUYERS} units: a 202, then {@code already-purchased}), without which a
 * burst's winners meet a cold path (the first burst's tail is about half as long with them,
 * docs/performance.md). The admitting sale's admissions start no purchase: the first {@code
 * starts} of them rehearse the workflow start on the api's start threads, each run deleted at once
 * ({@link StartQueue#rehearse}; without them a fresh api's first burst waits on its cold start path,
 * docs/performance.md), and the warm-up waits for them. Its keys are deleted afterwards; the other
 * sales' keys expire on their own.
 */
class AdmissionWarmup implements ApplicationRunner {

    /**
     * A W3C trace context whose flags say "not sampled": the requests run the tracing code of a real
     * one (so it is compiled too) and the sampler, which follows a caller's decision, records none.
     */
    static final String NOT_SAMPLED = "00-5741524d55505741524d555057415250-5741524d55505741-00";

    /** The status counted for a request that got no answer (a connection lost under it). */
    static final int NO_ANSWER = 0;

    private static final Logger log = LoggerFactory.getLogger(AdmissionWarmup.class);
    private static final Duration KEYS_TTL = Duration.ofMinutes(10);
    private static final Duration REHEARSAL_WAIT = Duration.ofSeconds(30);
    private static final RateLimits NO_LIMIT = new RateLimits(new RateLimits.Bucket(0, 1), new RateLimits.Bucket(0, 1));
    /** Distinct buyers, so both the token decoder and its cache get used; the admitting sale's units. */
    static final int BUYERS = 1000;

    private final ApiProperties.Warmup settings;
    private final SaleStock stock;
    private final WarmupTokens tokens;
    private final WebServerApplicationContext context;
    private final StartQueue starts;

    AdmissionWarmup(
            ApiProperties.Warmup settings,
            SaleStock stock,
            StartQueue starts,
            WarmupTokens tokens,
            WebServerApplicationContext context) {
        this.settings = settings;
        this.stock = stock;
        this.starts = starts;
        this.tokens = tokens;
        this.context = context;
    }

    @Override
    public void run(ApplicationArguments args) throws Exception {
        String run = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Instant now = Instant.now();
        String notOpen = "warmup_" + run + "_n";
        String soldOut = "warmup_" + run + "_s";
        String admitting = "warmup_" + run + "_a";
        stock.loadUnlisted(sale(notOpen, 0, now.plus(KEYS_TTL), now.plus(KEYS_TTL.multipliedBy(2))), KEYS_TTL);
        stock.loadUnlisted(sale(soldOut, 0, now.minusSeconds(1), now.plus(KEYS_TTL)), KEYS_TTL);
        stock.loadUnlisted(sale(admitting, BUYERS, now.minusSeconds(1), now.plus(KEYS_TTL)), KEYS_TTL);
        long cpuBefore = cpuNanos();
        long started = System.nanoTime();
        StartQueue.Rehearsal rehearsal = starts.rehearse(admitting, settings.starts());
        Map<Integer, Integer> answers;
        int toRehearse;
        try {
            answers = send(List.of(notOpen, soldOut, admitting));
            toRehearse = Math.min(settings.starts(), answers.getOrDefault(202, 0));
            awaitRehearsal(rehearsal, toRehearse);
        } finally {
            rehearsal.end();
            stock.unloadUnlisted(admitting);
        }
        log.info(
                "admission path warmed: {} requests in {} ms, {} ms of CPU, answers {}, {} workflow starts rehearsed",
                settings.requests(),
                (System.nanoTime() - started) / 1_000_000,
                (cpuNanos() - cpuBefore) / 1_000_000,
                answers,
                rehearsal.done());
        if (rehearsal.done() < toRehearse) {
            log.warn(
                    "{} of {} workflow start rehearsals failed or were dropped (Temporal slow or away); the"
                            + " first purchases may meet a colder start path",
                    toRehearse - rehearsal.done(),
                    toRehearse);
        }
        if (answers.containsKey(NO_ANSWER)) {
            log.warn(
                    "{} warm-up requests got no answer; the admission path may meet a burst less warm",
                    answers.get(NO_ANSWER));
        }
    }

    /** Until {@code expected} rehearsals are done or failed, or it ended, at most {@link #REHEARSAL_WAIT}. */
    private static void awaitRehearsal(StartQueue.Rehearsal rehearsal, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + REHEARSAL_WAIT.toNanos();
        while (rehearsal.done() + rehearsal.failed() < expected
                && rehearsal.failed() == 0
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    private static Sale sale(String id, int units, Instant opens, Instant closes) {
        return new Sale(id, "warm-up", units, units, opens, closes, Duration.ofMinutes(1), NO_LIMIT, Price.UNSET);
    }

    /** The requests, {@code concurrency} at once; answers counted by status. */
    private Map<Integer, Integer> send(List<String> sales) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + context.getWebServer().getPort() + "/api/sales/";
        AtomicInteger next = new AtomicInteger();
        Map<Integer, Integer> statuses = new java.util.concurrent.ConcurrentHashMap<>();
        ExecutorService threads = Executors.newFixedThreadPool(settings.concurrency());
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < settings.concurrency(); t++) {
                workers.add(threads.submit(() -> {
                    for (int i = next.getAndIncrement(); i < settings.requests(); i = next.getAndIncrement()) {
                        String buyer = "warmup" + (i % BUYERS);
                        HttpRequest request = HttpRequest.newBuilder(
                                        URI.create(base + sales.get(i % sales.size()) + "/purchases"))
                                .header("Authorization", "Bearer " + tokens.buyer(buyer))
                                .header("Idempotency-Key", "warmup-" + i)
                                .header("traceparent", NOT_SAMPLED)
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build();
                        statuses.merge(statusOf(http, request), 1, Integer::sum);
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            threads.shutdownNow();
        }
        return new java.util.TreeMap<>(statuses);
    }

    /**
     * The answer's status, or {@value #NO_ANSWER} when the request got none: JDK 17's client now and
     * then closes a pooled connection under a request ("connection closed locally"), and one lost
     * warm-up request must not stop the api from starting.
     */
    static int statusOf(HttpClient http, HttpRequest request) throws InterruptedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException noAnswer) {
            return NO_ANSWER;
        }
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
