package io.flashsale.bench;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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

    static final List<String> PHASES = List.of("P1", "curve", "P2", "P3", "P4", "P5", "P6", "P7");

    /** The row each phase reports the hypervisor's share of the box in ({@link CpuMeter.Stolen}). */
    static final String STOLEN = "CPU taken by the hypervisor during the phase (steal, % of the box)";

    enum Temporal {
        cli,
        cluster
    }

    @Mixin
    private Settings settings;

    @Option(names = "--profile", description = "JFR recordings of the api and the worker into --out.")
    private boolean profile;

    @Option(names = "--phases", split = ",", description = "P1,curve,P2-P7; default P1,curve,P2-P4 (cluster: P1,P3)")
    private List<String> phases;

    @Option(names = "--temporal", description = "cli, or cluster (adds P6 on it).", defaultValue = "cli")
    private Temporal temporal;

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

    @Option(names = "--out", description = "Where results.json, chart.png and logs go.", defaultValue = "target/bench")
    private Path out;

    @Override
    public Integer call() throws Exception {
        System.out.println("\n" + report().table());
        System.out.println("results: " + out.resolve("results.json") + ", chart: " + out.resolve("chart.png"));
        return 0;
    }

    /** The phases {@link #only} names on a private stack, the report written to {@code --out}. */
    Report report() throws Exception {
        Files.createDirectories(out);
        Path logs = out.resolve("logs");
        PrivateStores stores = PrivateStores.fresh();
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        try (Phases on = Phases.on(Stack.start(root, logs, stores, backendNice, appFlags()), stores, settings(), run)) {
            System.out.println("stack up: api " + on.stack().api() + ", "
                    + on.stack().temporal() + ", schema " + stores.schema() + ", Redis prefix " + stores.redisPrefix());
            Report report = new Report(Report.Environment.of(on));
            Comparisons comparisons = new Comparisons(on, root, logs);
            for (String phase : only()) {
                System.out.println(phase + " ...");
                CpuMeter.Stolen before = CpuMeter.Stolen.read();
                Report.Phase result =
                        switch (phase) {
                            case "P1" -> SoldOutPhases.p1(on);
                            case "curve" -> SoldOutPhases.curve(on);
                            case "P2" -> SalePhases.p2(on);
                            case "P3" -> on.p3();
                            case "P4" -> SalePhases.p4(on);
                            case "P5" -> comparisons.p5();
                            case "P6" -> comparisons.p6();
                            default -> comparisons.p7();
                        };
                report.phases().add(result.value(STOLEN, CpuMeter.Stolen.read().percentSince(before)));
            }
            report.write(out);
            return report;
        } finally {
            stores.drop();
        }
    }

    /** The JVM flags per app, with a JFR recording into {@code --out} when {@code --profile}. */
    Map<FlashSaleStack.App, List<String>> appFlags() {
        Map<FlashSaleStack.App, List<String>> flags = new EnumMap<>(FlashSaleStack.App.class);
        flags.put(FlashSaleStack.App.API, new ArrayList<>(apiFlags));
        flags.put(FlashSaleStack.App.WORKER, new ArrayList<>(workerFlags));
        if (profile) {
            flags.forEach((app, list) -> list.add("-XX:StartFlightRecording=filename="
                    + out.toAbsolutePath().resolve(app.module() + ".jfr") + ",settings=profile,dumponexit=true"));
        }
        return flags;
    }

    Settings settings() {
        return settings.sized();
    }

    /** In the order they run: P1, the phases named (else the defaults), and P6 with {@code --temporal cluster}. */
    Set<String> only() {
        boolean cluster = temporal == Temporal.cluster;
        List<String> names = phases != null ? phases : cluster ? List.of("P3") : List.of("curve", "P2", "P3", "P4");
        Set<String> named = new HashSet<>(Set.of("P1"));
        if (cluster) {
            named.add("P6");
        }
        for (String name : names) {
            named.add(PHASES.stream()
                    .filter(p -> p.equalsIgnoreCase(name.trim()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            "--phases: unknown phase " + name.trim() + "; known: " + String.join(",", PHASES))));
        }
        return PHASES.stream().filter(named::contains).collect(Collectors.toCollection(LinkedHashSet::new));
    }
}
