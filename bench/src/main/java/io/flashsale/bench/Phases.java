package io.flashsale.bench;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.Processes;
import io.flashsale.testkit.ApiClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** What the phases on one stack share: its stores, settings, an api client, a CPU meter, the run's sale tag; and P3. */
record Phases(Stack stack, PrivateStores stores, Settings settings, ApiClient api, CpuMeter cpu, String run)
        implements AutoCloseable {

    /** The pay timeout of the bench's sales: longer than a run, so no measured order expires during it. */
    static final Duration NOTHING_EXPIRES = Duration.ofMinutes(30);

    /** How long a phase waits for its winners' orders (or its workflows) to settle. */
    static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(5);

    /** The phases' view of {@code stack}, which closes with it (at once, should this fail). */
    static Phases on(Stack stack, PrivateStores stores, Settings settings, String run) throws Exception {
        try {
            return new Phases(stack, stores, settings, new ApiClient(stack.api()), CpuMeter.of(stack), run);
        } catch (RuntimeException | Error e) {
            stack.close();
            throw e;
        }
    }

    JdbcClient mysql() {
        return JdbcClient.create(new DriverManagerDataSource(stores.jdbcUrl(), stores.user(), stores.password()));
    }

    Requests requests() {
        return new Requests(api.address());
    }

    void createSale(String sale, int units) {
        api.createSale(stack.tokens().admin(), sale, units, NOTHING_EXPIRES).expect("creating sale " + sale, 201, 200);
    }

    AuditSummary audit(String sale) {
        return AuditSummary.read(api, stack.tokens(), sale);
    }

    /** A sold-out sale's buyers (P1, the curve, P5): its one unit sold, then 2,000 buyers in rotation. */
    HttpLoad.Source soldOut(String sale) {
        createSale(sale, 1);
        api.purchase(stack.tokens().buyer(sale + "owner"), sale, "k-owner").expect("selling out " + sale, 202);
        return HttpLoad.Source.of(
                requests().purchases(stack.tokens(), sale, 2000).requests(), true);
    }

    /** {@code source} for {@code duration} (nothing for zero) or up to the run's request cap. */
    Tally timed(HttpLoad.Source source, Duration duration, int connections) throws Exception {
        Tally tally = new Tally(null);
        if (!duration.isZero()) {
            AtomicLong issued = new AtomicLong();
            HttpLoad.Source capped = () -> issued.incrementAndGet() > settings.maxRequests() ? null : source.next();
            new HttpLoad(api.address()).run(connections, capped, tally, System.nanoTime() + duration.toNanos());
        }
        return tally;
    }

    /** Bytes the api allocated so far ({@code jvm.gc.memory.allocated}), after a {@code jcmd GC.run} counts them. */
    double allocatedBytes() throws Exception {
        String jcmd = Path.of(Processes.java()).resolveSibling("jcmd").toString();
        String pid = Long.toString(stack.flashSale().process("api").pid());
        Path log = stack.flashSale().processes().log("jcmd");
        if (Processes.exec(List.of(jcmd, pid, "GC.run"), Map.of(), log, Duration.ofSeconds(60)) != 0) {
            throw new IllegalStateException("jcmd GC.run on the api failed, see " + log);
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
        int warmup = Math.min(200, n);
        settle("p3w", warmup);
        double allocated = allocatedBytes();
        Settled purchases = settle("p3", n);
        long settled = purchases.tally().count("admitted");
        double allocation = (allocatedBytes() - allocated) / Math.max(1, settled) / 1024;
        String temporal = stack.temporal().address();
        Process worker = stack.launch("trivial-worker", TrivialWorker.class, List.of(), TrivialWorker.READY, temporal);
        try {
            int threads = Math.min(settings.connections, n);
            TrivialWorker.complete(temporal, "p3tw" + run, warmup, threads, SETTLE_TIMEOUT);
            double trivial = n / TrivialWorker.complete(temporal, "p3t" + run, n, threads, SETTLE_TIMEOUT);
            return new Report.Phase("P3", "settle rate: admitted -> PENDING_PAYMENT vs trivial 3-step workflow")
                    .value("purchase settle rate (/s)", purchases.rate())
                    .value("trivial workflows completed (/s)", trivial)
                    .value("api allocation per admission, its workflow's start included (KB)", allocation)
                    .ratio(purchases.rate() / trivial, 0.8, "purchase settle rate / trivial workflow rate >= 0.8", true)
                    .fact("purchases settled", settled)
                    .fact("trivial completed", (long) n);
        } finally {
            Processes.stop(worker.toHandle(), Duration.ofSeconds(30));
        }
    }

    /** A sale's answers, seconds until every winner was PENDING_PAYMENT, CPU ms per request and winner. */
    record Settled(
            String sale,
            Tally tally,
            HttpLoad.Schedule schedule,
            double seconds,
            Map<String, Double> cpuPerRequest,
            Map<String, Double> cpuPerWinner) {

        double rate() {
            return tally.count("admitted") / seconds;
        }
    }

    /** {@code n} buyers of a new sale of {@code n} units, closed loop, its id tagged with the run's. */
    Settled settle(String sale, int n) throws Exception {
        return settle(sale + run, n, n, false);
    }

    /** {@code buyers} buyers of a new sale, closed loop or open ({@code --rate}), until every winner is pending. */
    Settled settle(String sale, int units, int buyers, boolean openLoop) throws Exception {
        createSale(sale, units);
        Requests.Burst burst = openLoop
                ? requests().burst(stack.tokens(), sale, "u", buyers, 4)
                : requests().purchases(stack.tokens(), sale, buyers);
        Tally tally = new Tally(burst.users()::get);
        Map<String, Duration> before = cpu.read();
        long start = System.nanoTime();
        HttpLoad load = new HttpLoad(api.address());
        HttpLoad.Schedule schedule = null;
        if (openLoop) { // a second of arrivals opens its connections before the first send
            int warm = Math.max(settings.connections, settings.arrivalRate);
            schedule = load.runOpen(burst.requests(), settings.arrivalRate, warm, HttpLoad.MAX_OPEN_CONNECTIONS, tally);
        } else {
            load.each(settings.connections, burst.requests(), tally);
        }
        long winners = tally.count("admitted");
        // read every 250 ms: each read costs CPU within that measured per winner
        Await.until(
                "%d orders of sale %s PENDING_PAYMENT".formatted(winners, sale),
                SETTLE_TIMEOUT,
                Duration.ofMillis(250),
                () -> api.sale(stack.tokens().admin(), sale)
                        .expect("reading sale " + sale, 200)
                        .body(),
                seen -> seen.path("pendingPayment").asLong() >= winners);
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Duration> after = cpu.read();
        Map<String, Double> perRequest =
                CpuMeter.millisPer(before, after, burst.requests().size());
        Map<String, Double> perWinner = CpuMeter.millisPer(before, after, winners);
        return new Settled(sale, tally, schedule, seconds, perRequest, perWinner);
    }

    @Override
    public void close() throws Exception {
        stack.close();
    }
}
