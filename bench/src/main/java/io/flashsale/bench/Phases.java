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
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * What the phases on one stack share: its stores, the settings, a client of its api (the admin
 * calls outside the measured load), a CPU meter, and the run's tag of its sale ids; and P3.
 */
record Phases(Stack stack, PrivateStores stores, Settings settings, ApiClient api, CpuMeter cpu, String run) {

    static final int SOLD_OUT_BUYERS = 2000;

    /** The pay timeout of the bench's sales: longer than a run, so no measured order expires during it. */
    static final Duration NOTHING_EXPIRES = Duration.ofMinutes(30);

    /** How long a phase waits for its winners' orders (or its workflows) to settle. */
    static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(5);

    /** How often a settling sale is read: each read costs CPU within that measured per winner. */
    private static final Duration SETTLE_POLL = Duration.ofMillis(250);

    static Phases on(Stack stack, PrivateStores stores, Settings settings, String run) {
        return new Phases(stack, stores, settings, new ApiClient(stack.api()), CpuMeter.of(stack), run);
    }

    /** The run's MySQL schema, as the stack's owner. */
    JdbcClient mysql() {
        return JdbcClient.create(new DriverManagerDataSource(stores.jdbcUrl(), stores.user(), stores.password()));
    }

    HttpLoad load() {
        return new HttpLoad(api.address());
    }

    Requests requests() {
        return new Requests(api.address());
    }

    /** A sale of {@code units} that opens now. */
    void createSale(String sale, int units) {
        api.createSale(stack.tokens().admin(), sale, units, NOTHING_EXPIRES).expect("creating sale " + sale, 201, 200);
    }

    AuditSummary audit(String sale) {
        return AuditSummary.read(api, stack.tokens(), sale);
    }

    /** A sold-out sale's buyers (P1, the curve, P5): its unit sold, then {@value #SOLD_OUT_BUYERS} buyers in rotation. */
    HttpLoad.Source soldOut(String sale) {
        createSale(sale, 1);
        api.purchase(stack.tokens().buyer(sale + "owner"), sale, "k-owner").expect("selling out " + sale, 202);
        return HttpLoad.Source.cycle(requests().purchases(stack.tokens(), sale, SOLD_OUT_BUYERS));
    }

    /** {@code source} for {@code duration} (nothing for zero) or up to the run's request cap. */
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
                () -> api.get("/api/sales/" + sale, stack.tokens().admin())
                        .expect("reading sale " + sale, 200)
                        .body(),
                seen -> seen.path("pendingPayment").asLong() >= expected);
        return (System.nanoTime() - sinceNanos) / 1e9;
    }

    /**
     * Bytes the api has allocated so far ({@code jvm.gc.memory.allocated}, counted at each collection),
     * after a collection ({@code jcmd PID GC.run}): a load within the young generation counts nothing.
     */
    double allocatedBytes() throws IOException, InterruptedException {
        Path jcmd = Path.of(Processes.java()).resolveSibling("jcmd");
        Path log = Files.createTempFile("jcmd", ".log");
        try {
            long pid = stack.flashSale().process("api").pid();
            List<String> gc = List.of(jcmd.toString(), Long.toString(pid), "GC.run");
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

    /** A sale's answers, the seconds until every winner was PENDING_PAYMENT, each process's CPU ms per request and winner. */
    record Settled(Tally tally, double seconds, Map<String, Double> cpuPerRequest, Map<String, Double> cpuPerWinner) {

        long count() {
            return tally.count("admitted");
        }

        double rate() {
            return count() / seconds;
        }
    }

    /** {@code n} buyers of a new sale of {@code n} units, its id tagged with the run's. */
    Settled settle(String sale, int n) throws Exception {
        return settle(sale + run, n, n);
    }

    /** {@code buyers} buyers of a new sale of {@code units}, one request each, closed loop, until settled. */
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
