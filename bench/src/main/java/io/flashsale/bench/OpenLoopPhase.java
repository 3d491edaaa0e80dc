package io.flashsale.bench;

import io.flashsale.launcher.PrivateStores;
import io.flashsale.testkit.Tokens;

/**
 * P4: the flash sale as it arrives, open loop ({@link HttpLoad#runOpen}) on {@link Burst}'s arrivals;
 * correctness from the api's audit once every winner's order is PENDING_PAYMENT (docs/performance.md).
 */
final class OpenLoopPhase {

    static final double LOSERS_P99_MS = 25;
    static final double WINNERS_P99_MS = 50;
    static final String[] LOSERS = {"sold-out", "already-purchased", "same-key"};

    private final Settings settings;
    private final PrivateStores stores;
    private final Admin admin;
    private final Tokens tokens;
    private final String run;
    private final HttpLoad load;
    private final Requests requests;

    OpenLoopPhase(Settings settings, PrivateStores stores, Admin admin, Tokens tokens, String run) {
        this.settings = settings;
        this.stores = stores;
        this.admin = admin;
        this.tokens = tokens;
        this.run = run;
        this.load = new HttpLoad(admin.address());
        this.requests = new Requests(admin.address());
    }

    private record Sold(Burst burst, Tally tally, HttpLoad.Schedule schedule, double settleSeconds, OrderLag lag) {}

    Report.Phase run() throws Exception {
        if (!settings.warmup().isZero()) {
            sell("p4w" + run);
        }
        String sale = "p4" + run;
        Sold sold = sell(sale);
        Tally tally = sold.tally();
        AuditSummary audit = admin.audit(sale);
        long duplicates = audit.duplicateOrders() + tally.usersAdmittedTwice();
        boolean met = audit.oversold() == 0
                && duplicates == 0
                && tally.millis(99, LOSERS) <= LOSERS_P99_MS
                && tally.millis(99, "admitted") <= WINNERS_P99_MS;
        HttpLoad.Schedule schedule = sold.schedule();
        Report.Phase phase = new Report.Phase(
                        "P4",
                        "%,d buyers for %,d units, open loop at %,d requests/s"
                                .formatted(settings.burstBuyers(), settings.burstUnits(), settings.arrivalRate()))
                .latency("winners", tally, WINNERS_P99_MS, "admitted")
                .latency("losers", tally, LOSERS_P99_MS, LOSERS)
                .value("requests", sold.burst().size())
                .value("admitted", tally.count("admitted"))
                .value("oversold", audit.oversold())
                .value("duplicate orders", duplicates)
                .value("every buyer answered after (s)", schedule.seconds())
                .value("throughput (req/s)", sold.burst().size() / schedule.seconds())
                .value("sends > " + HttpLoad.LATE.toMillis() + " ms behind schedule", schedule.late())
                .value("send delay p99 (ms)", schedule.delayMillis(99))
                .value("send delay max (ms)", schedule.delayMillis(100))
                .value("connections opened", schedule.connections())
                .value("all winners PENDING_PAYMENT after (s)", sold.settleSeconds());
        return sold.lag()
                .addTo(phase, "")
                .target(
                        "losers p99 <= %s ms; winners p99 <= %s ms; oversold = 0; duplicates = 0"
                                .formatted(Report.fmt(LOSERS_P99_MS), Report.fmt(WINNERS_P99_MS)),
                        met)
                .fact("outcomes", tally.counts())
                .fact("orders by status", audit.ordersByStatus())
                .fact("mysql balanced", audit.mysqlBalanced())
                .fact("redis balanced", audit.redisBalanced());
    }

    /** The sale's arrivals, then the wait until every winner's order is written. */
    private Sold sell(String sale) throws Exception {
        admin.createSale(sale, settings.burstUnits(), Admin.NOTHING_EXPIRES);
        Burst burst = Burst.of(requests, tokens, sale, settings.burstBuyers(), 4);
        Tally tally = burst.newTally();
        long start = System.nanoTime();
        HttpLoad.Schedule schedule =
                burst.fireOpen(load, settings.arrivalRate(), settings.warmConnections(settings.arrivalRate()), tally);
        double settled = admin.awaitPending(sale, tally.count("admitted"), start, Admin.SETTLE_TIMEOUT);
        return new Sold(
                burst,
                tally,
                schedule,
                settled,
                OrderLag.of(tally.admittedAtMillis(), OrderLag.writtenAt(stores, sale)));
    }
}
