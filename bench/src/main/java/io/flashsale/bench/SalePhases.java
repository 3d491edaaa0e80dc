package io.flashsale.bench;

import io.flashsale.testkit.Tokens;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** P2 and P4: a sale of {@code --units} for {@code --buyers}, a contest against {@link DbBaseline} and open loop. */
final class SalePhases {

    static final double TARGET = 3;
    static final double LOSERS_P99_MS = 25;
    static final double WINNERS_P99_MS = 50;
    static final String API = "Redis-first api";
    static final String BASELINE = "DB-only baseline";
    static final String BASELINE_CPU = BASELINE + ": CPU ms per buyer request (its contest, every process)";

    private record Baseline(Tally tally, Map<String, Double> cpuPerRequest) {}

    private SalePhases() {}

    /** P2: the contest with stock, on the DB-only baseline and then on the api. */
    static Report.Phase p2(Phases on) throws Exception {
        Settings settings = on.settings();
        String baseline = "p2b" + on.run();
        try (DbBaseline db = DbBaseline.start(on.stack(), on.mysql())) {
            CpuMeter cpu = on.cpu().including(DbBaseline.NAME, db.process().toHandle());
            if (!settings.warmup().isZero()) {
                contest(on, db, cpu, "p2bw" + on.run());
                on.settle("p2aw" + on.run(), settings.burstUnits, settings.burstBuyers, false);
            }
            Baseline contest = contest(on, db, cpu, baseline);
            Tally onDb = contest.tally();
            Phases.Settled onApi = on.settle("p2a" + on.run(), settings.burstUnits, settings.burstBuyers, false);
            Tally forged = forged(db, baseline);
            DbBaseline.Sale table = db.sale(baseline);
            AuditSummary audit = on.audit(onApi.sale());
            boolean correct = onApi.tally().counts().equals(expected(settings, "admitted"))
                    && onDb.counts().equals(expected(settings, "created"))
                    && table.orders() == settings.burstUnits
                    && table.available() == 0
                    && audit.oversold() == 0
                    && audit.duplicateOrders() == 0
                    && forged.count("unauthorized") == 1;
            Report.Phase phase = new Report.Phase(
                    "P2",
                    "%,d buyers for %,d units, one request each, %d connections: %s vs %s"
                            .formatted(settings.burstBuyers, settings.burstUnits, settings.connections, API, BASELINE));
            side(phase, API, onApi.tally(), "admitted");
            side(phase, BASELINE, onDb, "created");
            orderLag(on, onApi).addTo(phase, API + ": ");
            return phase.value(BASELINE + ": winners in its orders table", table.orders())
                    .value(API + ": oversold (audit)", audit.oversold())
                    .value(API + ": duplicate orders (audit)", audit.duplicateOrders())
                    .value(API + ": all winners PENDING_PAYMENT after (s)", onApi.seconds())
                    .ratio(
                            onDb.seconds() / onApi.tally().seconds(),
                            TARGET,
                            "DB-only time / Redis-first time to answer every buyer >= %s; exactly %,d winners on each"
                                    .formatted(Report.fmt(TARGET), settings.burstUnits),
                            correct)
                    .fact(API + ": CPU ms per winner (contest and settle, every process)", onApi.cpuPerWinner())
                    .fact(API + ": CPU ms per buyer request (same span)", onApi.cpuPerRequest())
                    .fact(BASELINE_CPU, contest.cpuPerRequest())
                    .fact(API + " outcomes", onApi.tally().counts())
                    .fact(BASELINE + " outcomes", onDb.counts())
                    .fact(BASELINE + " answer to a forged token", forged.counts())
                    .fact(API + " mysql balanced", audit.mysqlBalanced())
                    .fact(API + " redis balanced", audit.redisBalanced());
        }
    }

    /** A fresh sale in the baseline's tables, then each buyer's one request, closed loop. */
    private static Baseline contest(Phases on, DbBaseline db, CpuMeter cpu, String sale) throws Exception {
        db.createSale(sale, on.settings().burstUnits);
        List<byte[]> buyers = new Requests(db.address())
                .purchases(on.stack().tokens(), sale, on.settings().burstBuyers)
                .requests();
        Map<String, Duration> before = cpu.read();
        Tally tally = new HttpLoad(db.address()).each(on.settings().connections, buyers, new Tally(null));
        return new Baseline(tally, cpu.millisPer(before, buyers.size()));
    }

    /** One purchase with a token signed by another key. */
    private static Tally forged(DbBaseline db, String sale) throws Exception {
        String token = new Tokens("forged-" + UUID.randomUUID() + UUID.randomUUID()).buyer(sale + "forger");
        byte[] request = new Requests(db.address()).purchase(sale, token, "k-forger");
        return new HttpLoad(db.address()).each(1, List.of(request), new Tally(null));
    }

    /** Exactly the units won, every other buyer told sold-out: nothing else (no 5xx, no rate limit). */
    private static Map<String, Long> expected(Settings settings, String won) {
        Map<String, Long> outcomes = new TreeMap<>(Map.of(won, (long) settings.burstUnits));
        if (settings.burstBuyers > settings.burstUnits) {
            outcomes.put("sold-out", (long) settings.burstBuyers - settings.burstUnits);
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

    /** P4: the flash sale as it arrives, open loop on {@link Requests#burst}, checked by the api's audit. */
    static Report.Phase p4(Phases on) throws Exception {
        Phases.Settled sold = sell(on);
        Tally tally = sold.tally();
        HttpLoad.Schedule schedule = sold.schedule();
        AuditSummary audit = on.audit(sold.sale());
        long duplicates = audit.duplicateOrders() + tally.usersAdmittedTwice();
        boolean met = audit.oversold() == 0
                && duplicates == 0
                && tally.millis(99, Tally.LOSERS) <= LOSERS_P99_MS
                && tally.millis(99, "admitted") <= WINNERS_P99_MS;
        Settings settings = on.settings();
        Report.Phase phase = new Report.Phase(
                        "P4",
                        "%,d buyers for %,d units, open loop at %,d requests/s"
                                .formatted(settings.burstBuyers, settings.burstUnits, settings.arrivalRate))
                .latency("winners", tally, WINNERS_P99_MS, "admitted")
                .latency("losers", tally, LOSERS_P99_MS, Tally.LOSERS)
                .value("requests", tally.answered())
                .value("admitted", tally.count("admitted"))
                .value("oversold", audit.oversold())
                .value("duplicate orders", duplicates)
                .value("every buyer answered after (s)", schedule.seconds())
                .value("throughput (req/s)", tally.answered() / schedule.seconds())
                .value("sends > " + HttpLoad.LATE.toMillis() + " ms behind schedule", schedule.late())
                .value("send delay p99 (ms)", schedule.sendDelays().getValueAtPercentile(99) / 1e3)
                .value("send delay max (ms)", schedule.sendDelays().getMaxValue() / 1e3)
                .value("connections opened", schedule.connections())
                .value("all winners PENDING_PAYMENT after (s)", sold.seconds());
        return orderLag(on, sold)
                .addTo(phase, "")
                .target(
                        "losers p99 <= %s ms; winners p99 <= %s ms; oversold = 0; duplicates = 0"
                                .formatted(Report.fmt(LOSERS_P99_MS), Report.fmt(WINNERS_P99_MS)),
                        met)
                .fact("outcomes", tally.counts())
                .fact("mysql balanced", audit.mysqlBalanced())
                .fact("redis balanced", audit.redisBalanced());
    }

    /** From each winner's 202 of the {@code settled} sale to its order in MySQL. */
    private static OrderLag orderLag(Phases on, Phases.Settled settled) {
        return OrderLag.of(settled.tally().admittedAtMillis(), on.mysql(), settled.sale());
    }

    /** The measured sale, after a warm-up sale alike unless {@code --warmup 0}. */
    static Phases.Settled sell(Phases on) throws Exception {
        Settings settings = on.settings();
        if (!settings.warmup().isZero()) {
            on.settle("p4w" + on.run(), settings.burstUnits, settings.burstBuyers, true);
        }
        return on.settle("p4" + on.run(), settings.burstUnits, settings.burstBuyers, true);
    }
}
