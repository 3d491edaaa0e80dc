package io.flashsale.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** P1 and the load curve: the sold-out purchase path, after the burst nearly all of a sale's traffic. */
final class SoldOutPhases {

    static final double P1_TARGET = 0.9;

    private SoldOutPhases() {}

    /** P1: the sold-out purchase against the api's cheapest endpoint (liveness, no token). */
    static Report.Phase p1(Phases on) throws Exception {
        Settings settings = on.settings();
        HttpLoad.Source purchases = on.soldOut("p1" + on.run());
        HttpLoad.Source liveness = HttpLoad.Source.of(List.of(on.requests().liveness()), true);
        List<Integer> levels = settings.p1Connections();
        Report.Phase phase = new Report.Phase("P1", "sold-out purchase vs liveness at " + levels + " connections");
        for (int connections : levels) {
            on.timed(liveness, settings.warmup(), connections);
            on.timed(purchases, settings.warmup(), connections);
            Tally live = on.timed(liveness, settings.duration(), connections);
            // the collection before each allocation read stays outside the CPU measured
            double allocated = on.allocatedBytes();
            Map<String, Duration> before = on.cpu().read();
            Tally buy = on.timed(purchases, settings.duration(), connections);
            Map<String, Double> cpuPerAnswer = on.cpu().millisPer(before, buy.answered());
            double allocation = (on.allocatedBytes() - allocated) / buy.answered() / 1024;
            double ratio = buy.throughput() / live.throughput();
            String at = ", " + connections + " connections";
            phase.value("api allocation per sold-out answer" + at + " (KB)", allocation)
                    .fact("CPU ms per sold-out answer" + at, cpuPerAnswer)
                    .measure("purchase" + at, buy, connections)
                    .measure("liveness" + at, live, connections)
                    .fact("purchase outcomes" + at, buy.counts())
                    .fact("liveness outcomes" + at, live.counts());
            if (connections == settings.connections) {
                phase.ratio(
                        ratio,
                        P1_TARGET,
                        "purchase / liveness >= " + P1_TARGET + " at " + connections + " connections",
                        true);
            } else {
                phase.value("ratio at " + connections + " connections", ratio);
            }
        }
        return phase;
    }

    /** The load curve: sold-out purchase throughput and latency at each of {@code --curve}. */
    static Report.Phase curve(Phases on) throws Exception {
        Settings settings = on.settings();
        HttpLoad.Source purchases = on.soldOut("cv" + on.run());
        Report.Phase phase = new Report.Phase(Chart.CURVE, "sold-out purchase at " + settings.curve + " connections");
        for (int connections : settings.curve) {
            on.timed(purchases, settings.warmup(), connections);
            Tally buy = on.timed(purchases, settings.duration(), connections);
            phase.measure("purchase, " + connections + " connections", buy, connections)
                    .fact("purchase outcomes, " + connections + " connections", buy.counts());
        }
        return phase;
    }
}
