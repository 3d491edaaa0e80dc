package io.flashsale.bench;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.temporal.DevServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The benchmark's run ({@link #benchmark}, behind {@link BenchCommand}) and the main of the child
 * processes it starts by class name:
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
            throw new IllegalArgumentException("usage: trivial-worker|db-baseline ARGUMENT");
        }
        switch (args[0]) {
            case "trivial-worker" -> TrivialWorker.run(args[1]);
            case BaselineProcess.NAME -> DbBaseline.serve(Integer.parseInt(args[1]));
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    /** The phases {@code --phases} may name, in the order they run. */
    static final List<String> PHASES = List.of("P1", "curve", "P2", "P3", "P4", "P5", "P6", "P7");

    static final List<String> DEFAULT_PHASES = List.of("P1", "curve", "P2", "P3", "P4");

    /** The phases named, P1 always among them; an unknown name is refused. */
    static Set<String> phases(List<String> names) {
        Set<String> phases = new java.util.HashSet<>(Set.of("P1"));
        for (String name : names) {
            String phase = PHASES.stream()
                    .filter(p -> p.equalsIgnoreCase(name.trim()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            "--phases: unknown phase " + name.trim() + "; known: " + String.join(",", PHASES)));
            phases.add(phase);
        }
        return phases;
    }

    /**
     * Starts a private stack, runs the phases {@code only} names ({@link #phases}), writes the report
     * to {@code out}, stops the stack. {@code backEndNice}: the niceness of the dev server and the
     * worker; {@code extraFlags}: JVM flags per app (e.g. -Dproperty=value to try a fix).
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
        PrivateStores stores = PrivateStores.fresh();
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
                    "P7", () -> ReplicaComparison.run(root, out.resolve("logs"), stores, settings, temporal),
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

    /** The main stack's Temporal: {@code cluster} runs it on the dev server (the bench adds P6). */
    static DevServer.Kind temporalKind(String temporal) {
        return switch (temporal) {
            case "cli", "cluster" -> DevServer.Kind.CLI;
            case "test-server" -> DevServer.Kind.TEST_SERVER;
            default -> throw new IllegalArgumentException("--temporal is cli, cluster or test-server, not " + temporal);
        };
    }
}
