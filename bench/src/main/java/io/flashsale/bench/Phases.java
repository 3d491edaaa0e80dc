package io.flashsale.bench;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.Processes;
import io.flashsale.testkit.ApiClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the phases on one stack share: the stack, its stores, the run's settings, a client of its
 * api (the few admin calls outside the measured load), a CPU meter of its processes and a tag that
 * keeps this run's sale ids apart. P3 is here; the other phases are classes of their own.
 */
record Phases(Stack stack, PrivateStores stores, Settings settings, ApiClient api, CpuMeter cpu, String run) {

    static final int SOLD_OUT_BUYERS = 2000;

    /** The pay timeout of the bench's sales: longer than a run, so no measured order expires during it. */
    static final Duration NOTHING_EXPIRES = Duration.ofMinutes(30);

    /** How long a phase waits for its winners' orders (or its workflows) to settle. */
    static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(5);

    /**
     * How often a settling sale's view is read: each read costs the api and MySQL, within the CPU
     * measured per winner; the time to the last order comes from MySQL's timestamps ({@link OrderLag}).
     */
    private static final Duration SETTLE_POLL = Duration.ofMillis(250);

    static Phases on(Stack stack, PrivateStores stores, Settings settings, String run) {
        return new Phases(stack, stores, settings, new ApiClient(stack.api()), CpuMeter.of(stack), run);
    }

    HttpLoad load() {
        return new HttpLoad(api.address());
    }

    Requests requests() {
        return new Requests(api.address());
    }

    /** Creates a sale of {@code units} that opens now; fails unless the api answers 201 or 200. */
    void createSale(String sale, int units) {
        api.createSale(stack.tokens().admin(), sale, units, NOTHING_EXPIRES).expect("creating sale " + sale, 201, 200);
    }

    /** The product's invariant audit of the sale. */
    AuditSummary audit(String sale) {
        return AuditSummary.read(api, stack.tokens(), sale);
    }

    /**
     * A sold-out sale's buyers (P1, the curve, P5): the sale {@code sale} with one unit, sold to a
     * buyer outside the measured ones, then {@value #SOLD_OUT_BUYERS} distinct signed buyers asking
     * for it in rotation, each answered sold-out by the admission script.
     */
    HttpLoad.Source soldOut(String sale) throws Exception {
        createSale(sale, 1);
        byte[] owner = requests().purchase(sale, stack.tokens().buyer(sale + "owner"), "k-owner");
        Tally sold = load().each(1, List.of(owner), new Tally(null));
        if (sold.count("admitted") != 1) {
            throw new IllegalStateException("selling out " + sale + " failed: " + sold.counts());
        }
        return HttpLoad.Source.cycle(requests().purchases(stack.tokens(), sale, SOLD_OUT_BUYERS));
    }

    /**
     * {@code source} for {@code duration} at {@code connections}, or until the run's request cap,
     * whichever ends first; nothing for zero.
     */
    Tally timed(HttpLoad.Source source, Duration duration, int connections) throws Exception {
        Tally tally = new Tally(null);
        if (!duration.isZero()) {
            AtomicLong issued = new AtomicLong();
            HttpLoad.Source capped = () -> issued.incrementAndGet() > settings.maxRequests() ? null : source.next();
            load().run(connections, capped, tally, System.nanoTime() + duration.toNanos());
        }
        return tally;
    }

    /** Seconds from {@code sinceNanos} (System.nanoTime) until {@code expected} orders of the sale are PENDING_PAYMENT. */
    double awaitPending(String sale, long expected, long sinceNanos) throws Exception {
        Await.until(
                "%d orders of sale %s PENDING_PAYMENT".formatted(expected, sale),
                SETTLE_TIMEOUT,
                SETTLE_POLL,
                () -> api.sale(stack.tokens().admin(), sale)
                        .expect("reading sale " + sale, 200)
                        .body(),
                seen -> seen.path("pendingPayment").asLong() >= expected);
        return (System.nanoTime() - sinceNanos) / 1e9;
    }

    /**
     * Bytes the api has allocated so far, as Micrometer counts them at each collection ({@code
     * jvm.gc.memory.allocated}); a collection is asked for first ({@code jcmd PID GC.run}), or a load
     * that fills less than the young generation would count nothing.
     */
    double allocatedBytes() throws IOException, InterruptedException {
        Path jcmd = Path.of(Processes.java()).resolveSibling("jcmd");
        Path log = Files.createTempFile("jcmd", ".log");
        try {
            List<String> gc =
                    List.of(jcmd.toString(), Long.toString(stack.process("api").pid()), "GC.run");
            if (Processes.exec(gc, Map.of(), log, Duration.ofSeconds(60)) != 0) {
                throw new IllegalStateException("jcmd GC.run on the api failed: " + Files.readString(log));
            }
        } finally {
            Files.delete(log);
        }
        return api.get("/actuator/prometheus", stack.tokens().admin())
                .expect("reading the api's metrics", 200)
                .text()
                .lines()
                .filter(line -> line.startsWith("jvm_gc_memory_allocated_bytes_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** P3: admitted to PENDING_PAYMENT per second against a trivial 3-step workflow, same Temporal. */
    Report.Phase p3() throws Exception {
        int n = settings.settleWorkflows;
        settle("p3w", Math.min(200, n));
        double allocated = allocatedBytes();
        Settled purchases = settle("p3", n);
        double allocationPerAdmission = (allocatedBytes() - allocated) / Math.max(1, purchases.count()) / 1024;
        String temporal = stack.temporal().address();
        Process worker = stack.launch("trivial-worker", TrivialWorker.class, List.of(), TrivialWorker.READY, temporal);
        try {
            int threads = Math.min(settings.connections, n);
            TrivialWorker.complete(temporal, "p3tw" + run, Math.min(200, n), threads, SETTLE_TIMEOUT);
            double trivialSeconds = TrivialWorker.complete(temporal, "p3t" + run, n, threads, SETTLE_TIMEOUT);
            return new Report.Phase("P3", "settle rate: admitted -> PENDING_PAYMENT vs trivial 3-step workflow")
                    .value("purchase settle rate (/s)", purchases.rate())
                    .value("purchase settle time (s)", purchases.seconds())
                    .value("trivial workflows completed (/s)", n / trivialSeconds)
                    .value("trivial settle time (s)", trivialSeconds)
                    .value("workflows", n)
                    .value("api allocation per admission, its workflow's start included (KB)", allocationPerAdmission)
                    .ratio(
                            purchases.rate() / (n / trivialSeconds),
                            0.8,
                            "purchase settle rate / trivial workflows' rate >= 0.8")
                    .fact("purchases settled", purchases.count())
                    .fact("trivial completed", (long) n);
        } finally {
            Processes.stop(worker.toHandle(), Duration.ofSeconds(30));
        }
    }

    /**
     * A sale's buyers answered and settled: the answers, the seconds until every winner's order was
     * PENDING_PAYMENT, and each process's CPU ms over both per buyer request and per winner.
     */
    record Settled(Tally tally, double seconds, Map<String, Double> cpuPerRequest, Map<String, Double> cpuPerWinner) {

        long count() {
            return tally.count("admitted");
        }

        double rate() {
            return count() / seconds;
        }
    }

    /** {@code n} buyers of a new sale of {@code n} units, its id {@code sale} tagged with the run's. */
    Settled settle(String sale, int n) throws Exception {
        return settle(sale + run, n, n);
    }

    /**
     * {@code buyers} buyers of a new sale {@code sale} of {@code units}, one request each, closed loop
     * at the run's connections, then the wait until every winner's order is PENDING_PAYMENT.
     */
    Settled settle(String sale, int units, int buyers) throws Exception {
        createSale(sale, units);
        List<byte[]> purchases = requests().purchases(stack.tokens(), sale, buyers);
        Map<String, Duration> before = cpu.read();
        long start = System.nanoTime();
        Tally tally = load().each(settings.connections, purchases, new Tally(i -> Requests.user(sale, i)));
        long winners = tally.count("admitted");
        double seconds = awaitPending(sale, winners, start);
        return new Settled(tally, seconds, cpu.millisPer(before, buyers), cpu.millisPer(before, winners));
    }
}
