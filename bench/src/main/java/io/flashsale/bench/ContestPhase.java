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

    /**
     * Where one side's sales are created and its buyers sent, the processes whose CPU counts, and
     * whether its winners' orders are written after the answers (the api) or before (the baseline).
     */
    private record Side(InetSocketAddress address, SaleMaker sales, CpuMeter cpu, boolean settles) {}

    private interface SaleMaker {
        void create(String sale, int units) throws Exception;
    }

    /**
     * One side's contest: its answers, each process's CPU ms per buyer request and, on the api, per
     * winner, with the seconds until every winner's order was PENDING_PAYMENT and its {@link OrderLag}.
     */
    private record Contest(
            Tally tally,
            Map<String, Double> cpuPerRequest,
            Map<String, Double> cpuPerWinner,
            double settleSeconds,
            OrderLag lag) {}

    Report.Phase run() throws Exception {
        String run = on.run();
        Admin admin = on.admin();
        try (DbBaseline baseline = DbBaseline.start(on.stack(), on.stores())) {
            Side db = new Side(
                    baseline.address(),
                    baseline::createSale,
                    on.cpu().including(DbBaseline.NAME, baseline.process()),
                    false);
            Side api = new Side(
                    admin.address(),
                    (sale, units) -> admin.createSale(sale, units, Admin.NOTHING_EXPIRES),
                    on.cpu(),
                    true);
            if (!settings.warmup().isZero()) {
                contest(db, "p2bw" + run);
                contest(api, "p2aw" + run);
            }
            Contest onDb = contest(db, "p2b" + run);
            Contest onApi = contest(api, "p2a" + run);
            return report(onApi, onDb, admin.audit("p2a" + run), baseline.sale("p2b" + run), forged(db, "p2b" + run));
        }
    }

    private Report.Phase report(
            Contest onApi, Contest baseline, AuditSummary audit, DbBaseline.Sale table, Tally forged) {
        int units = settings.burstUnits();
        Tally onDb = baseline.tally();
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
                .value(API + ": all winners PENDING_PAYMENT after (s)", onApi.settleSeconds())
                .ratio(
                        onDb.seconds() / onApi.tally().seconds(),
                        TARGET,
                        "DB-only time / Redis-first time to answer every buyer >= %s; exactly %,d winners on each"
                                .formatted(Report.fmt(TARGET), units),
                        correct)
                .fact(API + ": CPU ms per winner (contest and settle, every process)", onApi.cpuPerWinner())
                .fact(API + ": CPU ms per buyer request (same span)", onApi.cpuPerRequest())
                .fact(BASELINE_CPU, baseline.cpuPerRequest())
                .fact(API + " outcomes", onApi.tally().counts())
                .fact(BASELINE + " outcomes", onDb.counts())
                .fact(BASELINE + " table", table)
                .fact(BASELINE + " answer to a forged token", forged.counts())
                .fact(API + " mysql balanced", audit.mysqlBalanced())
                .fact(API + " redis balanced", audit.redisBalanced());
    }

    /** A fresh sale on {@code side}, then each buyer's one request, closed loop; on the api the wait for the orders. */
    private Contest contest(Side side, String sale) throws Exception {
        CpuMeter meter = side.cpu();
        side.sales().create(sale, settings.burstUnits());
        List<byte[]> buyers = new Requests(side.address()).purchases(on.stack().tokens(), sale, settings.burstBuyers());
        Map<String, Duration> before = meter.read();
        long start = System.nanoTime();
        Tally tally = TimedLoad.each(
                new HttpLoad(side.address()), buyers, settings.connections(), new Tally(i -> Requests.user(sale, i)));
        if (!side.settles()) {
            return new Contest(tally, meter.millisPer(before, buyers.size()), Map.of(), Double.NaN, null);
        }
        long winners = tally.count("admitted");
        double seconds = on.admin().awaitPending(sale, winners, start);
        return new Contest(
                tally,
                meter.millisPer(before, buyers.size()),
                meter.millisPer(before, winners),
                seconds,
                OrderLag.of(tally.admittedAtMillis(), OrderLag.writtenAt(on.stores(), sale)));
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
