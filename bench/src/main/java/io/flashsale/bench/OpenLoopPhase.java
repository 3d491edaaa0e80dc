package io.flashsale.bench;

/** P4: the flash sale as it arrives, open loop on {@link Requests#burst}, checked by the api's audit. */
record OpenLoopPhase(Phases on, Settings settings) {

    static final double LOSERS_P99_MS = 25;
    static final double WINNERS_P99_MS = 50;

    OpenLoopPhase(Phases on) {
        this(on, on.settings());
    }

    private record Sold(
            Requests.Burst burst, Tally tally, HttpLoad.Schedule schedule, double settleSeconds, OrderLag lag) {}

    Report.Phase run() throws Exception {
        if (!settings.warmup().isZero()) {
            sell("p4w" + on.run());
        }
        String sale = "p4" + on.run();
        Sold sold = sell(sale);
        Tally tally = sold.tally();
        AuditSummary audit = on.audit(sale);
        long duplicates = audit.duplicateOrders() + tally.usersAdmittedTwice();
        boolean met = audit.oversold() == 0
                && duplicates == 0
                && tally.millis(99, Tally.LOSERS) <= LOSERS_P99_MS
                && tally.millis(99, "admitted") <= WINNERS_P99_MS;
        HttpLoad.Schedule schedule = sold.schedule();
        Report.Phase phase = new Report.Phase(
                        "P4",
                        "%,d buyers for %,d units, open loop at %,d requests/s"
                                .formatted(settings.burstBuyers, settings.burstUnits, settings.arrivalRate))
                .latency("winners", tally, WINNERS_P99_MS, "admitted")
                .latency("losers", tally, LOSERS_P99_MS, Tally.LOSERS)
                .value("requests", sold.burst().requests().size())
                .value("admitted", tally.count("admitted"))
                .value("oversold", audit.oversold())
                .value("duplicate orders", duplicates)
                .value("every buyer answered after (s)", schedule.seconds())
                .value("throughput (req/s)", sold.burst().requests().size() / schedule.seconds())
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

    private Sold sell(String sale) throws Exception {
        on.createSale(sale, settings.burstUnits);
        Requests.Burst burst = on.requests().burst(on.stack().tokens(), sale, "u", settings.burstBuyers, 4);
        Tally tally = new Tally(burst.users()::get);
        long start = System.nanoTime();
        // open before the first send: one second of arrivals, at least the run's connections
        int warm = Math.max(settings.connections, settings.arrivalRate);
        HttpLoad.Schedule schedule =
                on.load().runOpen(burst.requests(), settings.arrivalRate, warm, HttpLoad.MAX_OPEN_CONNECTIONS, tally);
        double settled = on.awaitPending(sale, tally.count("admitted"), start);
        return new Sold(
                burst,
                tally,
                schedule,
                settled,
                OrderLag.of(tally.admittedAtMillis(), OrderLag.writtenAt(on.mysql(), sale)));
    }
}
