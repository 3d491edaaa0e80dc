package io.flashsale.bench;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The options of {@code bin/flashsale bench} that size its loads. With {@code --smoke} each one not
 * given takes the smoke test's size, and a timed load stops at {@value #SMOKE_REQUESTS} requests.
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
    int connections;

    @Option(
            names = "--warmup",
            description = "Seconds of warm-up before each timed load; 0: none.",
            defaultValue = "10")
    private int warmup;

    @Option(names = "--duration", description = "Seconds of each timed load.", defaultValue = "15")
    private int duration;

    @Option(names = "--settle", description = "Purchases P3 (and P6) settle.", defaultValue = "1000")
    int settleWorkflows;

    @Option(
            names = "--buyers",
            description = "Buyers of the P2 and P4 sales, one request each.",
            defaultValue = "10000")
    int burstBuyers;

    @Option(names = "--units", description = "Units of the P2 and P4 sales.", defaultValue = "500")
    int burstUnits;

    @Option(names = "--rate", description = "P4's open-loop arrivals per second.", defaultValue = "2000")
    int arrivalRate;

    @Option(
            names = "--curve",
            split = ",",
            description = "The load curve's connection counts.",
            defaultValue = "16,64,200,800")
    List<Integer> curve;

    @Option(names = "--smoke", description = "About 50 requests per phase, for options not given.")
    private boolean smoke;

    /** This, once parsed, with {@code --smoke}'s size for every option not given. */
    Settings sized() {
        if (smoke) {
            ParseResult given = bench.commandLine().getParseResult();
            connections = given.hasMatchedOption("--connections") ? connections : 8;
            warmup = given.hasMatchedOption("--warmup") ? warmup : 0;
            duration = given.hasMatchedOption("--duration") ? duration : 30;
            settleWorkflows = given.hasMatchedOption("--settle") ? settleWorkflows : 30;
            burstBuyers = given.hasMatchedOption("--buyers") ? burstBuyers : SMOKE_REQUESTS;
            burstUnits = given.hasMatchedOption("--units") ? burstUnits : 10;
            arrivalRate = given.hasMatchedOption("--rate") ? arrivalRate : 500;
        }
        return this;
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

    /** P1's connection counts, fewest first: {@value #P1_LOW_CONNECTIONS} and {@code connections}. */
    List<Integer> p1Connections() {
        return Stream.of(P1_LOW_CONNECTIONS, connections).distinct().sorted().toList();
    }

    /** What the run does, in words (the chart's header). */
    @Override
    public String toString() {
        return "%d connections, warm-up %d s, %d s per timed load, %,d settled purchases, "
                        .formatted(connections, warmup, duration, settleWorkflows)
                + "%,d buyers for %,d units, P4 at %,d requests/s, curve at %s connections"
                        .formatted(burstBuyers, burstUnits, arrivalRate, SoldOutPhases.join(curve))
                + (smoke ? ", at most " + SMOKE_REQUESTS + " requests per timed load" : "");
    }
}
