package io.flashsale.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Three sales on a {@link ChaosStack} under {@link ChaosLoad} while the {@link Nemesis} breaks things,
 * audited every few seconds (drift is reported, not failed: it may heal), then checked as Jepsen
 * checks a database: the {@link Checker} over the whole history and the final {@link Facts}.
 */
public final class ChaosRun {

    /**
     * How a run is asked for ({@link ChaosCommand}); {@code cluster}: on the production-like Temporal
     * cluster instead of the dev server; {@code sentinel}: on Redis Sentinel, where killing Redis
     * loses the master's machine with its disk, instead of one Redis server.
     */
    public record Options(
            long seed, Duration duration, int rate, Path root, Path out, boolean cluster, boolean sentinel) {}

    public record Result(
            List<Nemesis.Fault> schedule,
            List<Nemesis.Done> faults,
            List<Op> history,
            List<Violation> violations,
            String table) {}

    /** Sale id suffix, stock and pay timeout of the run's three sales. */
    private record SaleSpec(String suffix, int stock, Duration payTimeout) {}

    private static final List<SaleSpec> SALES = List.of(
            new SaleSpec("a", 40, Duration.ofSeconds(20)),
            new SaleSpec("b", 2000, Duration.ofSeconds(20)),
            new SaleSpec("c", 15, Duration.ofSeconds(6)));

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration AUDIT_EVERY = Duration.ofSeconds(5);
    /** After the load: the longest pay timeout, the relay's handoff and a restart's worth of retries. */
    private static final Duration SETTLE = Duration.ofSeconds(120);

    private ChaosRun() {}

    public static Result run(Options options) throws Exception {
        Files.createDirectories(options.out());
        List<Nemesis.Fault> schedule = Nemesis.schedule(
                options.seed(),
                options.duration(),
                ChaosStack.targets(options.cluster()),
                ChaosStack.links(options.sentinel()));
        System.out.print(Nemesis.print(options.seed(), schedule, options.out().resolve("schedule.txt")));
        try (ChaosStack stack = ChaosStack.start(
                options.root(), options.out().resolve("logs"), options.cluster(), options.sentinel())) {
            ApiClient admin = new ApiClient(stack.apis().get(0));
            Tokens tokens = stack.tokens();
            Map<String, Integer> created = createSales(admin, tokens);
            List<String> sales = List.copyOf(created.keySet());
            Nemesis nemesis = new Nemesis(schedule);
            long start = System.nanoTime();
            List<String> drift = new CopyOnWriteArrayList<>();
            ScheduledExecutorService auditor = Executors.newSingleThreadScheduledExecutor();
            auditor.scheduleWithFixedDelay(
                    () -> audit(admin, tokens, sales, start, drift),
                    AUDIT_EVERY.toMillis(),
                    AUDIT_EVERY.toMillis(),
                    TimeUnit.MILLISECONDS);
            Thread faults = new Thread(() -> nemesis.run(stack, start), "nemesis");
            faults.start();
            ChaosLoad load = new ChaosLoad(stack.apis(), tokens, sales, options.seed() + 1, start);
            load.run(options.rate(), options.duration());
            faults.join();
            auditor.shutdownNow();
            List<Op> history = load.repeatUnansweredChanges(SETTLE);
            settle(admin, tokens, sales);
            Facts facts = Facts.read(stack.stores(), admin, tokens, created, history);
            List<Violation> violations = new ArrayList<>(Checker.check(history, facts));
            nemesis.done().stream()
                    .filter(done -> done.failure() != null)
                    .forEach(done -> violations.add(new Violation(
                            Checker.Rule.NEMESIS, done.fault() + " did not heal: " + done.failure(), List.of())));
            String table = RunTable.format(history, violations)
                    + lines("faults injected: " + nemesis.done().size(), nemesis.done())
                    + lines("drift audits: " + drift.size(), drift)
                    + "seed " + options.seed()
                    + (options.cluster() ? ", Temporal cluster" : ", Temporal dev server")
                    + (options.sentinel() ? ", Redis Sentinel" : ", one Redis server") + "\n";
            List<String> json = new ArrayList<>();
            for (Op op : history) {
                json.add(JSON.writeValueAsString(op));
            }
            Files.write(options.out().resolve("history.jsonl"), json);
            Files.writeString(options.out().resolve("result.txt"), table);
            return new Result(schedule, nemesis.done(), history, violations, table);
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
