package io.flashsale.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * P1 and the load curve: the sold-out purchase path (after the burst, nearly all of a flash sale's
 * traffic), each load measured after a warm-up of the same length and shape.
 */
final class SoldOutPhases {

    static final double P1_TARGET = 0.9;

    private final Stack stack;
    private final Settings settings;
    private final String run;
    private final HttpLoad load;
    private final HttpLoad.Source liveness;
    private final CpuMeter cpu;
    private final Admin admin;

    SoldOutPhases(Stack stack, Settings settings, String run, Admin admin) {
        this.stack = stack;
        this.cpu = CpuMeter.of(stack);
        this.admin = admin;
        this.settings = settings;
        this.run = run;
        java.net.InetSocketAddress api = admin.address();
        Requests requests = new Requests(api);
        this.load = new HttpLoad(api);
        this.liveness = TimedLoad.cycle(List.of(requests.liveness()));
    }

    /**
     * P1: the sold-out purchase path against the api's cheapest endpoint (liveness, no token), at
     * {@link Settings#p1Connections()}; judged at the run's connections.
     */
    Report.Phase p1() throws Exception {
        SoldOutLoad purchases = SoldOutLoad.on(stack, settings, "p1" + run);
        List<Integer> levels = settings.p1Connections();
        Report.Phase phase =
                new Report.Phase("P1", "sold-out purchase vs liveness at " + join(levels) + " connections");
        double judged = Double.NaN;
        for (int connections : levels) {
            TimedLoad.run(load, liveness, settings.withConnections(connections), settings.warmup());
            purchases.run(settings.warmup(), connections);
            Tally live = TimedLoad.run(load, liveness, settings.withConnections(connections), settings.duration());
            // the collection before each allocation read stays outside the CPU measured
            long apiPid = stack.process("api").pid();
            double allocated = admin.allocatedBytes(apiPid);
            Map<String, Duration> before = cpu.read();
            Tally buy = purchases.run(settings.duration(), connections);
            Map<String, Double> cpuPerAnswer = cpu.millisPer(before, buy.answered());
            phase.value(
                            "api allocation per sold-out answer, " + connections + " connections (KB)",
                            (admin.allocatedBytes(apiPid) - allocated) / buy.answered() / 1024)
                    .fact("CPU ms per sold-out answer, " + connections + " connections", cpuPerAnswer);
            double ratio = buy.throughput() / live.throughput();
            phase.measure("purchase, " + connections + " connections", buy, connections)
                    .measure("liveness, " + connections + " connections", live, connections)
                    .fact("purchase outcomes, " + connections + " connections", buy.counts())
                    .fact("liveness outcomes, " + connections + " connections", live.counts());
            if (connections == settings.connections()) {
                judged = ratio;
            } else {
                phase.value("ratio at " + connections + " connections", ratio);
            }
        }
        return phase.ratio(
                judged,
                P1_TARGET,
                "purchase / liveness >= " + P1_TARGET + " at " + settings.connections() + " connections");
    }

    /** The load curve: sold-out purchase throughput and latency at each of {@link Settings#curve()}. */
    Report.Phase curve() throws Exception {
        SoldOutLoad purchases = SoldOutLoad.on(stack, settings, "cv" + run);
        Report.Phase phase =
                new Report.Phase(Chart.CURVE, "sold-out purchase at " + join(settings.curve()) + " connections");
        for (int connections : settings.curve()) {
            purchases.run(settings.warmup(), connections);
            Tally buy = purchases.run(settings.duration(), connections);
            phase.measure("purchase, " + connections + " connections", buy, connections)
                    .fact("purchase outcomes, " + connections + " connections", buy.counts());
        }
        return phase;
    }

    /** "16, 64, 200 and 800". */
    static String join(List<Integer> levels) {
        List<String> text = levels.stream().map(String::valueOf).toList();
        return text.size() == 1
                ? text.get(0)
                : String.join(", ", text.subList(0, text.size() - 1)) + " and " + text.get(text.size() - 1);
    }
}
