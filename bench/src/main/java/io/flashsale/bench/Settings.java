package io.flashsale.bench;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The bench's load sizes; {@code --smoke} sizes each not given small and caps a timed load's requests. */
final class Settings {

    static final int SMOKE_REQUESTS = 50;

    @Spec(Spec.Target.MIXEE)
    private CommandSpec bench;

    @Option(names = "--connections", description = "Closed-loop connections (P1 also at 64).", defaultValue = "200")
    int connections;

    @Option(names = "--warmup", description = "Warm-up seconds before each timed load; 0: none.", defaultValue = "10")
    private int warmup;

    @Option(names = "--duration", description = "Seconds of each timed load.", defaultValue = "15")
    private int duration;

    @Option(names = "--settle", description = "Purchases P3 (and P6) settle.", defaultValue = "1000")
    int settleWorkflows;

    @Option(names = "--buyers", description = "P2's and P4's buyers, one request each.", defaultValue = "10000")
    int burstBuyers;

    @Option(names = "--units", description = "Units of the P2 and P4 sales.", defaultValue = "500")
    int burstUnits;

    @Option(names = "--rate", description = "P4's open-loop arrivals per second.", defaultValue = "2000")
    int arrivalRate;

    @Option(names = "--curve", split = ",", description = "Load curve connections.", defaultValue = "16,64,200,800")
    List<Integer> curve;

    @Option(names = "--smoke", description = "About 50 requests per phase, for options not given.")
    private boolean smoke;

    /** This, once parsed, with {@code --smoke}'s size for every option not given. */
    Settings sized() {
        connections = smoke("--connections", connections, 8);
        warmup = smoke("--warmup", warmup, 0);
        duration = smoke("--duration", duration, 30);
        settleWorkflows = smoke("--settle", settleWorkflows, 30);
        burstBuyers = smoke("--buyers", burstBuyers, SMOKE_REQUESTS);
        burstUnits = smoke("--units", burstUnits, 10);
        arrivalRate = smoke("--rate", arrivalRate, 500);
        return this;
    }

    private int smoke(String option, int given, int smokeSize) {
        return smoke && !bench.commandLine().getParseResult().hasMatchedOption(option) ? smokeSize : given;
    }

    Duration warmup() {
        return Duration.ofSeconds(warmup);
    }

    Duration duration() {
        return Duration.ofSeconds(duration);
    }

    long maxRequests() {
        return smoke ? SMOKE_REQUESTS : Long.MAX_VALUE;
    }

    /** P1's connection counts, fewest first: 64, below the default, and {@code --connections}. */
    List<Integer> p1Connections() {
        return Stream.of(64, connections).distinct().sorted().toList();
    }

    /** What the run does, in words (the chart's header). */
    @Override
    public String toString() {
        return "%d connections, warm-up %d s, %d s per timed load, %,d settled purchases, "
                        .formatted(connections, warmup, duration, settleWorkflows)
                + "%,d buyers for %,d units, P4 at %,d requests/s, curve at %s connections"
                        .formatted(burstBuyers, burstUnits, arrivalRate, curve)
                + (smoke ? ", at most " + SMOKE_REQUESTS + " requests per timed load" : "");
    }
}
