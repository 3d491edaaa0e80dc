package io.flashsale.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import io.flashsale.launcher.Await;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Three sales on a {@link ChaosStack} under {@link ChaosLoad} while the {@link Nemesis} breaks things,
 * audited every 5 s (drift is reported, not failed: it may heal), then the {@link Checker}
 * over the whole history and the final {@link Facts}.
 */
public final class ChaosRun {

    /**
     * How a run is asked for ({@link ChaosCommand}): {@code cluster} on the production-like Temporal
     * cluster, {@code sentinel} on Redis Sentinel (killing Redis loses the master's machine).
     */
    public record Options(
            long seed, Duration duration, int rate, Path root, Path out, boolean cluster, boolean sentinel) {}

    public record Result(
            List<Nemesis.Fault> schedule,
            List<Nemesis.Done> faults,
            List<Op> history,
            List<Checker.Violation> violations,
            String table) {}

    /** Sale id suffix, stock and pay timeout of each of the run's sales. */
    private record SaleSpec(String suffix, int stock, Duration payTimeout) {}

    private static final List<SaleSpec> SALES = List.of(
            new SaleSpec("a", 40, Duration.ofSeconds(20)),
            new SaleSpec("b", 2000, Duration.ofSeconds(20)),
            new SaleSpec("c", 15, Duration.ofSeconds(6)));

    private static final ObjectMapper JSON = new ObjectMapper();
    /** After the load: the longest pay timeout, the relay's handoff and a restart's worth of retries. */
    private static final Duration SETTLE = Duration.ofSeconds(120);

    private ChaosRun() {}

    public static Result run(Options options) throws Exception {
        Path out = Files.createDirectories(options.out());
        List<Nemesis.Fault> schedule = Nemesis.schedule(
                options.seed(),
                options.duration(),
                ChaosStack.targets(options.cluster()),
                ChaosStack.links(options.sentinel()));
        System.out.print(Nemesis.print(options.seed(), schedule, out.resolve("schedule.txt")));
        try (ChaosStack stack =
                ChaosStack.start(options.root(), out.resolve("logs"), options.cluster(), options.sentinel())) {
            ApiClient admin = new ApiClient(stack.apis().get(0));
            Tokens tokens = stack.tokens();
            Map<String, Integer> created = createSales(admin, tokens);
            List<String> sales = List.copyOf(created.keySet());
            long start = System.nanoTime();
            List<String> drift = new CopyOnWriteArrayList<>();
            ScheduledExecutorService auditor = Executors.newSingleThreadScheduledExecutor();
            auditor.scheduleWithFixedDelay(() -> audit(admin, tokens, sales, start, drift), 5, 5, TimeUnit.SECONDS);
            FutureTask<List<Nemesis.Done>> nemesis = new FutureTask<>(() -> Nemesis.run(schedule, stack, start));
            new Thread(nemesis, "nemesis").start();
            ChaosLoad load = new ChaosLoad(stack.apis(), tokens, sales, options.seed() + 1, start);
            load.run(options.rate(), options.duration());
            List<Nemesis.Done> faults = nemesis.get();
            auditor.shutdownNow();
            List<Op> history = load.repeatUnansweredChanges(SETTLE);
            settle(admin, tokens, sales);
            List<Checker.Violation> violations = new ArrayList<>(
                    Checker.check(history, Facts.read(stack.stores(), admin, tokens, created, history)));
            faults.stream()
                    .filter(done -> done.failure() != null)
                    .forEach(done -> violations.add(new Checker.Violation(
                            Checker.Rule.NEMESIS, done.fault() + " did not heal: " + done.failure(), List.of())));
            String table = RunTable.format(history, violations)
                    + lines("faults injected: " + faults.size(), faults)
                    + lines("drift audits: " + drift.size(), drift)
                    + "seed " + options.seed()
                    + (options.cluster() ? ", Temporal cluster" : ", Temporal dev server")
                    + (options.sentinel() ? ", Redis Sentinel" : ", one Redis server") + "\n";
            try (SequenceWriter json = JSON.writer()
                    .withRootValueSeparator("\n")
                    .writeValues(out.resolve("history.jsonl").toFile())) {
                json.writeAll(history);
            }
            Files.writeString(out.resolve("result.txt"), table);
            return new Result(schedule, faults, history, violations, table);
        }
    }

    /** The run's sales with the units each is created with. */
    private static Map<String, Integer> createSales(ApiClient admin, Tokens tokens) {
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        Map<String, Integer> sales = new LinkedHashMap<>();
        for (SaleSpec spec : SALES) {
            String id = "chaos" + run + spec.suffix();
            admin.createSale(tokens.admin(), id, spec.stock(), spec.payTimeout())
                    .expect("create sale " + id, 201);
            sales.put(id, spec.stock());
        }
        return sales;
    }

    /** One audit of every sale; a FAIL is drift (it may heal while faults heal), kept with its time. */
    private static void audit(ApiClient admin, Tokens tokens, List<String> sales, long start, List<String> drift) {
        for (String sale : sales) {
            AuditReport report = Facts.audit(admin, tokens, sale);
            if (report != null && report.result() == AuditVerdict.FAIL) {
                drift.add(String.format("%.1fs %s: %s", (System.nanoTime() - start) / 1e9, sale, report.violations()));
            }
        }
    }

    /** Waits until no sale has an admission in flight, a payment pending or a workflow running. */
    private static void settle(ApiClient admin, Tokens tokens, List<String> sales) throws Exception {
        try {
            Await.until(
                    "every sale to settle",
                    SETTLE,
                    Duration.ofSeconds(1),
                    () -> sales.stream()
                            .map(sale -> Facts.audit(admin, tokens, sale))
                            .toList(),
                    reports -> reports.stream()
                            .allMatch(report -> report != null
                                    && report.admissionsInFlight() == 0
                                    && report.pendingPayment() == 0
                                    && report.runningWorkflows() == 0));
        } catch (Await.TimedOut notSettled) {
            System.out.println("chaos: not every sale settled within " + SETTLE + "; checking what there is");
        }
    }

    private static String lines(String head, List<?> items) {
        return Stream.concat(Stream.of(head), items.stream().map(item -> "  " + item))
                        .collect(Collectors.joining("\n"))
                + "\n";
    }
}
