package io.flashsale.bench;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What a benchmark run does: the options of {@code bin/flashsale bench} that size its loads. With
 * {@code --smoke}, every one not given takes a size of about 50 requests per phase (the smoke
 * test's, correctness only), and each timed load stops at {@value #SMOKE_REQUESTS} requests; a real
 * run is bounded by {@code --duration} only.
 */
final class Settings {

    /** P1's second, lighter load: the sold-out path below the default 200 connections. */
    static final int P1_LOW_CONNECTIONS = 64;

    static final int SMOKE_REQUESTS = 50;

    @Spec(Spec.Target.MIXEE)
    private CommandSpec bench;

    @Option(
            names = "--connections",
            description = "Closed-loop connections of P1 (which also runs at 64), P2, P3 and P5.",
            defaultValue = "200")
    private int connections;

    @Option(
            names = "--warmup",
            description = "Seconds of warm-up before each timed load; 0: none.",
            defaultValue = "10")
    private int warmup;

    @Option(names = "--duration", description = "Seconds of each timed load.", defaultValue = "15")
    private int duration;

    @Option(names = "--settle", description = "Purchases P3 (and P6) settle.", defaultValue = "1000")
    private int settle;

    @Option(
            names = "--buyers",
            description = "Buyers of the P2 and P4 sales, one request each.",
            defaultValue = "10000")
    private int buyers;

    @Option(names = "--units", description = "Units of the P2 and P4 sales.", defaultValue = "500")
    private int units;

    @Option(names = "--rate", description = "P4's open-loop arrivals per second.", defaultValue = "2000")
    private int rate;

    @Option(
            names = "--curve",
            split = ",",
            description = "The load curve's connection counts.",
            defaultValue = "16,64,200,800")
    private List<Integer> curve;

    @Option(names = "--smoke", description = "About 50 requests per phase, for options not given.")
    private boolean smoke;

    int connections() {
        return given("--connections", connections, 8);
    }

    Duration warmup() {
        return Duration.ofSeconds(given("--warmup", warmup, 0));
    }

    Duration duration() {
        return Duration.ofSeconds(given("--duration", duration, 30));
    }

    /** Caps each timed load. */
    long maxRequests() {
        return smoke ? SMOKE_REQUESTS : Long.MAX_VALUE;
    }

    int settleWorkflows() {
        return given("--settle", settle, 30);
    }

    int burstBuyers() {
        return given("--buyers", buyers, SMOKE_REQUESTS);
    }

    int burstUnits() {
        return given("--units", units, 10);
    }

    int arrivalRate() {
        return given("--rate", rate, 500);
    }

    List<Integer> curve() {
        return curve;
    }

    /** {@code value}, or with {@code --smoke} and {@code option} not given, {@code smokeValue}. */
    private int given(String option, int value, int smokeValue) {
        return smoke && !bench.commandLine().getParseResult().hasMatchedOption(option) ? smokeValue : value;
    }

    /** P1's connection counts, fewest first: {@value #P1_LOW_CONNECTIONS} and {@code connections}. */
    List<Integer> p1Connections() {
        return Stream.of(P1_LOW_CONNECTIONS, connections()).distinct().sorted().toList();
    }

    /** What the run does, in words (the chart's header). */
    @Override
    public String toString() {
        return "%d connections, warm-up %d s, %d s per timed load, %,d settled purchases, "
                        .formatted(
                                connections(), warmup().toSeconds(), duration().toSeconds(), settleWorkflows())
                + "%,d buyers for %,d units, P4 at %,d requests/s, curve at %s connections"
                        .formatted(burstBuyers(), burstUnits(), arrivalRate(), SoldOutPhases.join(curve))
                + (smoke ? ", at most " + SMOKE_REQUESTS + " requests per timed load" : "");
    }
}
