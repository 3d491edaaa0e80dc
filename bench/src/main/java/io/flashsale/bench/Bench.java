package io.flashsale.bench;

import io.flashsale.bench.demo.DemoCommand;
import io.flashsale.devtemporal.DevServer;
import io.flashsale.stack.FlashSaleStack;
import io.flashsale.stack.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Entry point of {@code bin/flashsale bench} and {@code bin/flashsale demo}.
 *
 * <pre>
 * bench [--root DIR] [--out DIR] [--connections N] [--warmup S] [--duration S] [--settle N]
 *       [--buyers N] [--units N] [--rate N] [--curve 16,64,200,800] [--profile] [--smoke]
 *       [--phases P1,curve,P2,P3,P4,P5] [--api-flags "-Dx=y"] [--worker-flags "-Dx=y"] [--temporal cli|test-server]
 *       [--backend-nice N]
 * demo  [--root DIR] [--api URL] [--buyers N] [--late-buyers N] [--units N] [--pay-share F] [--pay-timeout S]
 *       [--settle-margin S] [--connections N] [--temporal-ui URL] [--temporal cli|test-server]
 * </pre>
 *
 * <p>demo {@code --temporal-ui}: the Temporal Web UI of the system {@code --api} names (default
 * {@code TEMPORAL_UI_URL}, else http://localhost:8233; namespace {@code TEMPORAL_NAMESPACE}, else
 * default); a private stack's stops with the demo, so none is shown then.
 *
 * <p>{@code --phases}: P1 always runs; the load curve ({@code curve}) and P2-P4 by default; P5 (the
 * purchase path on a Redis Cluster against the single Redis, a second stack on a local cluster) only
 * when named. {@code --rate}: P4's open-loop arrivals per second; {@code --curve}: the load curve's connection counts.
 *
 * <p>{@code --temporal}: the Temporal the private stack runs on, the real dev server ({@code cli},
 * the default) or Temporal's Java test server. {@code --backend-nice}: the niceness of the dev
 * server and the worker ({@link FlashSaleStack#BACK_END_NICE}, as {@code bin/flashsale up}; 0: as the
 * api).
 *
 * <pre>
 * trivial-worker TEMPORAL_ADDRESS
 * db-baseline PORT
 * </pre>
 */
public final class Bench {

    private Bench() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: bench|demo|chaos|trivial-worker|db-baseline [options]");
        }
        Map<String, String> options = options(args);
        switch (args[0]) {
            case "bench" -> benchMain(options);
            case "demo" -> System.exit(DemoCommand.main(options));
            case "chaos" -> System.exit(io.flashsale.bench.chaos.ChaosRun.main(options));
            case "trivial-worker" -> TrivialWorker.run(args[1]);
            case BaselineProcess.NAME -> DbBaseline.serve(Integer.parseInt(args[1]));
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    private static void benchMain(Map<String, String> o) throws Exception {
        Settings d = o.containsKey("smoke") ? Settings.smoke() : Settings.defaults();
        Settings settings = new Settings(
                integer(o, "connections", d.connections()),
                Duration.ofSeconds(integer(o, "warmup", (int) d.warmup().toSeconds())),
                Duration.ofSeconds(integer(o, "duration", (int) d.duration().toSeconds())),
                d.maxRequests(),
                integer(o, "settle", d.settleWorkflows()),
                integer(o, "buyers", d.burstBuyers()),
                integer(o, "units", d.burstUnits()),
                integer(o, "rate", d.arrivalRate()),
                o.containsKey("curve")
                        ? java.util.Arrays.stream(o.get("curve").split(","))
                                .map(String::trim)
                                .map(Integer::valueOf)
                                .toList()
                        : d.curve());
        Path out = Path.of(o.getOrDefault("out", "target/bench"));
        Map<FlashSaleStack.App, List<String>> appFlags = Map.of(
                FlashSaleStack.App.API, flags(o, "api-flags"), FlashSaleStack.App.WORKER, flags(o, "worker-flags"));
        Set<String> only = phases(o.getOrDefault("phases", DEFAULT_PHASES));
        if ("cluster".equals(o.get("temporal"))) {
            only = new java.util.HashSet<>(phases(o.getOrDefault("phases", "P1,P3")));
            only.add("P6");
        }
        Report report = benchmark(
                Path.of(o.getOrDefault("root", ".")),
                out,
                settings,
                temporalKind(o),
                o.containsKey("profile"),
                integer(o, "backend-nice", FlashSaleStack.BACK_END_NICE),
                appFlags,
                only);
        System.out.println();
        System.out.println(report.table());
        System.out.println("results: " + out.resolve("results.json") + ", chart: " + out.resolve("chart.png"));
    }

    /** JVM flags of an app, space-separated in option {@code name}; none when it is absent. */
    private static List<String> flags(Map<String, String> o, String name) {
        return o.containsKey(name) ? List.of(o.get(name).split(" ")) : List.of();
    }

    /** The phases {@code --phases} may name, in the order they run. */
    static final List<String> PHASES = List.of("P1", "curve", "P2", "P3", "P4", "P5", "P6");

    static final String DEFAULT_PHASES = "P1,curve,P2,P3,P4";

    /** The phases named (comma-separated), P1 always among them; an unknown name is refused. */
    static Set<String> phases(String names) {
        Set<String> phases = new java.util.HashSet<>(Set.of("P1"));
        for (String name : names.split(",")) {
            String phase = PHASES.stream()
                    .filter(p -> p.equalsIgnoreCase(name.trim()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            "--phases: unknown phase " + name.trim() + "; known: " + String.join(",", PHASES)));
            phases.add(phase);
        }
        return phases;
    }

    /** Starts a private stack, runs the default phases, writes the report to {@code out}, stops the stack. */
    static Report benchmark(Path root, Path out, Settings settings, DevServer.Kind temporal, boolean profile)
            throws Exception {
        return benchmark(
                root, out, settings, temporal, profile, FlashSaleStack.BACK_END_NICE, Map.of(), phases(DEFAULT_PHASES));
    }

    /**
     * {@code backEndNice}: the niceness of the dev server and the worker; {@code extraFlags}: JVM
     * flags per app (e.g. -Dproperty=value to try a fix); {@code only}: the phases ({@link #phases}).
     */
    static Report benchmark(
            Path root,
            Path out,
            Settings settings,
            DevServer.Kind temporal,
            boolean profile,
            int backEndNice,
            Map<FlashSaleStack.App, List<String>> extraFlags,
            Set<String> only)
            throws Exception {
        Files.createDirectories(out);
        Map<FlashSaleStack.App, List<String>> jvmFlags = new java.util.EnumMap<>(FlashSaleStack.App.class);
        for (FlashSaleStack.App app : FlashSaleStack.App.values()) {
            List<String> flags = new java.util.ArrayList<>(extraFlags.getOrDefault(app, List.of()));
            if (profile) {
                flags.add(flightRecording(out, app.module()));
            }
            jvmFlags.put(app, flags);
        }
        Stores stores = Stores.fresh();
        try (Stack stack = Stack.start(root, out.resolve("logs"), stores, temporal, backEndNice, jvmFlags)) {
            System.out.println("stack up: api " + stack.api() + ", " + stack.temporal() + ", schema " + stores.schema()
                    + ", Redis prefix " + stores.redisPrefix());
            Report report = new Report(Environment.of(
                    settings, stack.temporal(), CpuMeter.of(stack).niceness()));
            Phases phases = new Phases(stack, stores, settings, stack.tokens());
            Map<String, PhaseRun> runs = Map.of(
                    "P1", phases::p1,
                    "curve", phases::curve,
                    "P2", phases::p2,
                    "P3", phases::p3,
                    "P4", phases::p4,
                    "P5", () -> ClusterComparison.run(root, out.resolve("logs"), stores, settings, temporal),
                    "P6", () -> TemporalComparison.run(phases, root, out.resolve("logs"), settings));
            for (String phase : PHASES) {
                if (only.contains(phase)) {
                    report.add(step(phase, runs.get(phase)));
                }
            }
            report.write(out);
            return report;
        } finally {
            stores.drop();
        }
    }

    /** A JFR recording of the app {@code name} into {@code out}/{@code name}.jfr, written at its exit. */
    private static String flightRecording(Path out, String name) {
        return "-XX:StartFlightRecording=filename=" + out.toAbsolutePath().resolve(name + ".jfr")
                + ",settings=profile,dumponexit=true";
    }

    /** The row each phase reports the hypervisor's share of the box in ({@link StolenCpu}). */
    static final String STOLEN = "CPU taken by the hypervisor during the phase (steal, % of the box)";

    interface PhaseRun {
        Report.Phase run() throws Exception;
    }

    private static Report.Phase step(String name, PhaseRun phase) throws Exception {
        System.out.println(name + " ...");
        long start = System.nanoTime();
        Optional<StolenCpu> before = StolenCpu.read();
        Report.Phase result = phase.run();
        before.ifPresent(b -> StolenCpu.read().ifPresent(now -> result.value(STOLEN, now.percentSince(b))));
        System.out.printf(
                "%s done in %.1fs: ratio %s, %s%n",
                name,
                (System.nanoTime() - start) / 1e9,
                result.ratio,
                result.values.isEmpty() ? result.measures : result.values);
        return result;
    }

    /** The main stack's Temporal: {@code cluster} runs it on the dev server and adds P6. */
    public static DevServer.Kind temporalKind(Map<String, String> o) {
        String temporal = o.getOrDefault("temporal", "cli");
        return switch (temporal) {
            case "cli", "cluster" -> DevServer.Kind.CLI;
            case "test-server" -> DevServer.Kind.TEST_SERVER;
            default -> throw new IllegalArgumentException("--temporal is cli, cluster or test-server, not " + temporal);
        };
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                continue;
            }
            String name = args[i].substring(2);
            boolean flag = i + 1 >= args.length || args[i + 1].startsWith("--");
            options.put(name, flag ? "true" : args[++i]);
        }
        return options;
    }

    public static int integer(Map<String, String> o, String name, int fallback) {
        return o.containsKey(name) ? Integer.parseInt(o.get(name)) : fallback;
    }
}
