package io.flashsale.bench;

/** P4: the flash sale as it arrives, open loop on {@link Requests#burst}, checked by the api's audit. */
final class OpenLoopPhase {

    static final double LOSERS_P99_MS = 25;
    static final double WINNERS_P99_MS = 50;

    /** One open-loop sale: its requests' answers, how the generator kept its schedule, its orders' settling. */
    record Sold(
            String sale, int requests, Tally tally, HttpLoad.Schedule schedule, double settleSeconds, OrderLag lag) {}

    private OpenLoopPhase() {}

    static Report.Phase p4(Phases on) throws Exception {
        Sold sold = sell(on);
        Tally tally = sold.tally();
        AuditSummary audit = on.audit(sold.sale());
        long duplicates = audit.duplicateOrders() + tally.usersAdmittedTwice();
        boolean met = audit.oversold() == 0
                && duplicates == 0
                && tally.millis(99, Tally.LOSERS) <= LOSERS_P99_MS
                && tally.millis(99, "admitted") <= WINNERS_P99_MS;
        HttpLoad.Schedule schedule = sold.schedule();
        Settings settings = on.settings();
        Report.Phase phase = new Report.Phase(
                        "P4",
                        "%,d buyers for %,d units, open loop at %,d requests/s"
                                .formatted(settings.burstBuyers, settings.burstUnits, settings.arrivalRate))
                .latency("winners", tally, WINNERS_P99_MS, "admitted")
                .latency("losers", tally, LOSERS_P99_MS, Tally.LOSERS)
                .value("requests", sold.requests())
                .value("admitted", tally.count("admitted"))
                .value("oversold", audit.oversold())
                .value("duplicate orders", duplicates)
                .value("every buyer answered after (s)", schedule.seconds())
                .value("throughput (req/s)", sold.requests() / schedule.seconds())
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
                .fact("mysql balanced", audit.mysqlBalanced())
                .fact("redis balanced", audit.redisBalanced());
    }

    /** The measured sale, after a warm-up sale alike unless {@code --warmup 0}. */
    static Sold sell(Phases on) throws Exception {
        if (!on.settings().warmup().isZero()) {
            sell(on, "p4w" + on.run());
        }
        return sell(on, "p4" + on.run());
    }

    private static Sold sell(Phases on, String sale) throws Exception {
        Settings settings = on.settings();
        on.createSale(sale, settings.burstUnits);
        Requests.Burst burst = on.requests().burst(on.stack().tokens(), sale, "u", settings.burstBuyers, 4);
        Tally tally = new Tally(burst.users()::get);
        long start = System.nanoTime();
        // open before the first send: one second of arrivals, at least the run's connections
        int warm = Math.max(settings.connections, settings.arrivalRate);
        HttpLoad.Schedule schedule =
                on.load().runOpen(burst.requests(), settings.arrivalRate, warm, HttpLoad.MAX_OPEN_CONNECTIONS, tally);
        double settled = on.awaitPending(sale, tally.count("admitted"), start);
        OrderLag lag = OrderLag.of(tally.admittedAtMillis(), on.mysql(), sale);
        return new Sold(sale, burst.requests().size(), tally, schedule, settled, lag);
    }
}
