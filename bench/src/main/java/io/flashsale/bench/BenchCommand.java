package io.flashsale.bench;

import io.flashsale.launcher.FlashSaleStack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/flashsale bench}: the phases on a private stack, one table on stdout, results.json and chart.png. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        showDefaultValues = true,
        description = {
            "Benchmarks the purchase path on a private stack against its own ceilings (docs/performance.md).",
            "P1 always runs; the load curve and P2-P4 by default; P5 and P7 only when named; P6 with --temporal cluster."
        })
public final class BenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--duration", description = "Seconds of each timed load.", defaultValue = "15")
    private int duration;

    @Option(
            names = "--warmup",
            description = "Seconds of warm-up before each timed load; 0: none.",
            defaultValue = "10")
    private int warmup;

    @Option(
            names = "--connections",
            description = "Closed-loop connections of P1 (which also runs at 64), P2, P3 and P5.",
            defaultValue = "200")
    private int connections;

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

    @Option(names = "--profile", description = "JFR recordings of the api and the worker into --out.")
    private boolean profile;

    @Option(
            names = "--phases",
            split = ",",
            description = "Phases to run (P1,curve,P2,P3,P4,P5,P6); default P1,curve,P2,P3,P4,"
                    + " with --temporal cluster P1,P3.")
    private List<String> phases;

    @Option(
            names = "--temporal",
            description = "The stack's Temporal: cli (the dev server), cluster (the dev server, and P6 on the"
                    + " Temporal cluster) or test-server (Temporal's Java test server).",
            defaultValue = "cli")
    private String temporal;

    @Option(names = "--smoke", description = "About 50 requests per phase, for options not given.")
    private boolean smoke;

    @Option(names = "--api-flags", split = " ", description = "JVM flags of the api, e.g. \"-Dprop=value ...\".")
    private List<String> apiFlags = List.of();

    @Option(names = "--worker-flags", split = " ", description = "JVM flags of the worker.")
    private List<String> workerFlags = List.of();

    @Option(
            names = "--backend-nice",
            description = "Niceness of the worker and the dev server; 0: level with the api.",
            defaultValue = "" + FlashSaleStack.BACK_END_NICE)
    private int backendNice;

    @Option(names = "--root", description = "The repository.", defaultValue = ".")
    private Path root;

    @Option(
            names = "--out",
            description = "Where results.json, chart.png and the logs go.",
            defaultValue = "target/bench")
    private Path out;

    /** The JVM flags given per app. */
    Map<FlashSaleStack.App, List<String>> appFlags() {
        return Map.of(FlashSaleStack.App.API, apiFlags, FlashSaleStack.App.WORKER, workerFlags);
    }

    @Override
    public Integer call() throws Exception {
        Report report = report();
        System.out.println();
        System.out.println(report.table());
        System.out.println("results: " + out.resolve("results.json") + ", chart: " + out.resolve("chart.png"));
        return 0;
    }

    /** Runs the phases on a private stack and writes the report to {@code --out}. */
    Report report() throws Exception {
        return Bench.benchmark(
                root, out, settings(), Bench.temporalKind(temporal), profile, backendNice, appFlags(), only());
    }

    /** The options' settings; with {@code --smoke}, {@link Settings#smoke}'s for every option not given. */
    Settings settings() {
        Settings small = Settings.smoke();
        return new Settings(
                given("--connections", connections, small.connections()),
                Duration.ofSeconds(
                        given("--warmup", warmup, (int) small.warmup().toSeconds())),
                Duration.ofSeconds(
                        given("--duration", duration, (int) small.duration().toSeconds())),
                smoke ? small.maxRequests() : Long.MAX_VALUE,
                given("--settle", settle, small.settleWorkflows()),
                given("--buyers", buyers, small.burstBuyers()),
                given("--units", units, small.burstUnits()),
                given("--rate", rate, small.arrivalRate()),
                curve);
    }

    private int given(String option, int value, int smokeValue) {
        return smoke && !spec.commandLine().getParseResult().hasMatchedOption(option) ? smokeValue : value;
    }

    /** The phases to run; {@code --temporal cluster} adds P6. */
    Set<String> only() {
        boolean cluster = temporal.equals("cluster");
        Set<String> only = Bench.phases(phases != null ? phases : cluster ? List.of("P1", "P3") : Bench.DEFAULT_PHASES);
        if (cluster) {
            only.add("P6");
        }
        return only;
    }
}
