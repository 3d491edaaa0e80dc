package io.flashsale.bench;

/** P4: the flash sale as it arrives, open loop on {@link Requests#burst}, checked by the api's audit. */
final class OpenLoopPhase {

    static final double LOSERS_P99_MS = 25;
    static final double WINNERS_P99_MS = 50;

    private OpenLoopPhase() {}

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
    static Phases.Settled sell(Phases on) throws Exception {
        Settings settings = on.settings();
        if (!settings.warmup().isZero()) {
            on.settle("p4w" + on.run(), settings.burstUnits, settings.burstBuyers, true);
        }
        return on.settle("p4" + on.run(), settings.burstUnits, settings.burstBuyers, true);
    }
}
