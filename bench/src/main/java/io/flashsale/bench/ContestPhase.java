package io.flashsale.bench;

import io.flashsale.testkit.Tokens;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * P2: the contest with stock, on the DB-only baseline ({@link DbBaseline}) and then on the api; what
 * it measures and why it is fair: docs/performance.md.
 */
final class ContestPhase {

    static final double TARGET = 3;
    static final String API = "Redis-first api";
    static final String BASELINE = "DB-only baseline";
    static final String BASELINE_CPU = BASELINE + ": CPU ms per buyer request (its contest, every process)";

    private final Phases on;
    private final Settings settings;

    ContestPhase(Phases on) {
        this.on = on;
        this.settings = on.settings();
    }

    /** Where one side's sales are created and its buyers sent. */
    private record Side(InetSocketAddress address, SaleMaker sales) {}

    private interface SaleMaker {
        void create(String sale, int units) throws Exception;
    }

    /**
     * The api's contest: its answers, the seconds from its start until every winner's order was
     * written, and each process's CPU milliseconds over that time per winner and per buyer request.
     */
    private record Settled(
            Tally tally,
            double seconds,
            OrderLag lag,
            Map<String, Double> cpuPerWinner,
            Map<String, Double> cpuPerRequest) {}

    /** The baseline's contest: its answers and each process's CPU milliseconds per buyer request. */
    private record Answered(Tally tally, Map<String, Double> cpuPerRequest) {}

    Report.Phase run() throws Exception {
        String run = on.run();
        Admin admin = on.admin();
        try (DbBaseline baseline = DbBaseline.start(on.stack(), on.stores())) {
            Side db = new Side(baseline.address(), baseline::createSale);
            Side api = new Side(admin.address(), (sale, units) -> admin.createSale(sale, units, Admin.NOTHING_EXPIRES));
            CpuMeter dbCpu = on.cpu().including(DbBaseline.NAME, baseline.process());
            if (!settings.warmup().isZero()) {
                contest(db, "p2bw" + run);
                settledContest(api, "p2aw" + run);
            }
            Answered onDb = answeredContest(db, "p2b" + run, dbCpu);
            Settled onApi = settledContest(api, "p2a" + run);
            return report(onApi, onDb, admin.audit("p2a" + run), baseline.sale("p2b" + run), forged(db, "p2b" + run));
        }
    }

    private Report.Phase report(
            Settled onApi, Answered answered, AuditSummary audit, DbBaseline.Sale table, Tally forged) {
        int units = settings.burstUnits();
        Tally onDb = answered.tally();
        boolean correct = onApi.tally().counts().equals(expected("admitted"))
                && onDb.counts().equals(expected("created"))
                && table.orders() == units
                && table.available() == 0
                && audit.oversold() == 0
                && audit.duplicateOrders() == 0
                && forged.count("unauthorized") == 1;
        Report.Phase phase = new Report.Phase(
                "P2",
                "%,d buyers for %,d units, one request each, %d connections: %s vs %s"
                        .formatted(settings.burstBuyers(), units, settings.connections(), API, BASELINE));
        side(phase, API, onApi.tally(), "admitted");
        side(phase, BASELINE, onDb, "created");
        onApi.lag().addTo(phase, API + ": ");
        return phase.value(BASELINE + ": winners in its orders table", table.orders())
                .value(API + ": oversold (audit)", audit.oversold())
                .value(API + ": duplicate orders (audit)", audit.duplicateOrders())
                .value(API + ": all winners PENDING_PAYMENT after (s)", onApi.seconds())
                .ratio(
                        onDb.seconds() / onApi.tally().seconds(),
                        TARGET,
                        "DB-only time / Redis-first time to answer every buyer >= %s; exactly %,d winners on each"
                                .formatted(Report.fmt(TARGET), units),
                        correct)
                .fact(API + ": CPU ms per winner (contest and settle, every process)", onApi.cpuPerWinner())
                .fact(API + ": CPU ms per buyer request (same span)", onApi.cpuPerRequest())
                .fact(BASELINE_CPU, answered.cpuPerRequest())
                .fact(API + " outcomes", onApi.tally().counts())
                .fact(BASELINE + " outcomes", onDb.counts())
                .fact(BASELINE + " table", table)
                .fact(BASELINE + " answer to a forged token", forged.counts())
                .fact(API + " mysql balanced", audit.mysqlBalanced())
                .fact(API + " redis balanced", audit.redisBalanced());
    }

    /** A fresh sale on {@code side}, then each buyer's one request, closed loop. */
    private Tally contest(Side side, String sale) throws Exception {
        return fire(side, buyers(side, sale));
    }

    /** The baseline's contest, with the CPU each process spent on it. */
    private Answered answeredContest(Side db, String sale, CpuMeter meter) throws Exception {
        List<byte[]> buyers = buyers(db, sale);
        Map<String, Duration> before = meter.read();
        Tally tally = fire(db, buyers);
        return new Answered(tally, meter.millisPer(before, buyers.size()));
    }

    /** The api's contest, then the wait until every winner's order is PENDING_PAYMENT. */
    private Settled settledContest(Side api, String sale) throws Exception {
        List<byte[]> buyers = buyers(api, sale);
        CpuMeter cpu = on.cpu();
        Map<String, Duration> before = cpu.read();
        long start = System.nanoTime();
        Tally tally = TimedLoad.each(
                new HttpLoad(api.address()), buyers, settings.connections(), new Tally(i -> SoldOutLoad.user(sale, i)));
        double seconds = on.admin().awaitPending(sale, tally.count("admitted"), start);
        return new Settled(
                tally,
                seconds,
                OrderLag.of(tally.admittedAtMillis(), OrderLag.writtenAt(on.stores(), sale)),
                cpu.millisPer(before, tally.count("admitted")),
                cpu.millisPer(before, buyers.size()));
    }

    /** Creates the sale; each buyer's signed request, built before anything is timed. */
    private List<byte[]> buyers(Side side, String sale) throws Exception {
        side.sales().create(sale, settings.burstUnits());
        return SoldOutLoad.purchases(new Requests(side.address()), on.stack().tokens(), sale, settings.burstBuyers());
    }

    private Tally fire(Side side, List<byte[]> buyers) throws Exception {
        return TimedLoad.each(new HttpLoad(side.address()), buyers, settings.connections());
    }

    /** One purchase with a token signed by another key. */
    private Tally forged(Side side, String sale) throws Exception {
        Tokens other = new Tokens("forged-" + UUID.randomUUID() + UUID.randomUUID());
        byte[] request = new Requests(side.address()).purchase(sale, other.buyer(sale + "forger"), "k-forger");
        return TimedLoad.each(new HttpLoad(side.address()), List.of(request), 1);
    }

    /** Exactly the units won, every other buyer told sold-out: nothing else (no 5xx, no rate limit). */
    private Map<String, Long> expected(String won) {
        Map<String, Long> outcomes = new TreeMap<>(Map.of(won, (long) settings.burstUnits()));
        if (settings.burstBuyers() > settings.burstUnits()) {
            outcomes.put("sold-out", (long) settings.burstBuyers() - settings.burstUnits());
        }
        return outcomes;
    }

    private static void side(Report.Phase phase, String name, Tally tally, String won) {
        phase.value(name + ": every buyer answered after (s)", tally.seconds())
                .value(name + ": throughput (req/s)", tally.throughput())
                .value(name + ": winners", tally.count(won))
                .latency(name + " winners", tally, null, won)
                .latency(name + " losers", tally, null, "sold-out", "already-purchased");
    }
}
