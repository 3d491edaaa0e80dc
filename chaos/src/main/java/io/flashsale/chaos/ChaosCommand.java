package io.flashsale.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import io.flashsale.launcher.Await;
import io.flashsale.launcher.redis.RedisMode;
import io.flashsale.launcher.temporal.TemporalMode;
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
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * {@code bin/flashsale chaos}: a {@link ChaosStack} under {@link ChaosLoad} while the {@link Nemesis}
 * breaks it, audited every 5 s (drift is reported, not failed: it may heal), then the {@link Checker}.
 */
@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        showDefaultValues = true,
        description = {
            "A private stack (own Redis, MariaDB, Temporal, two workers, two apis, Toxiproxy links) with three"
                    + " sales under --rate operations a second while every 10-40 s a process is SIGKILLed or a"
                    + " link broken (the same --seed, the same faults), then checked against MySQL, Redis and"
                    + " Temporal; a Sentinel group's master is lost with its disk.",
            "Writes schedule.txt, history.jsonl and result.txt to --out; exits 1 on any violation."
        })
public final class ChaosCommand implements Callable<Integer> {

    public record Result(
            List<Nemesis.Fault> schedule,
            List<Nemesis.Done> faults,
            List<Op> history,
            List<Checker.Violation> violations,
            String table) {}

    private record SaleSpec(String suffix, int stock, Duration payTimeout) {}

    private static final List<SaleSpec> SALES = List.of(
            new SaleSpec("a", 40, Duration.ofSeconds(20)),
            new SaleSpec("b", 2000, Duration.ofSeconds(20)),
            new SaleSpec("c", 15, Duration.ofSeconds(6)));

    private static final ObjectMapper JSON = new ObjectMapper();
    /** After the load: the longest pay timeout, the relay's handoff and a restart's worth of retries. */
    private static final Duration SETTLE = Duration.ofSeconds(120);

    @Option(names = "--duration", defaultValue = "10m", converter = Seconds.class, description = "90s or 10m.")
    Duration duration;

    @Option(names = "--seed", showDefaultValue = Visibility.NEVER, description = "Default: from the clock.")
    Long seed;

    @Option(names = "--rate", defaultValue = "20", description = "Operations a second, open loop.")
    int rate;

    @Option(names = "--temporal", defaultValue = "dev", description = "${COMPLETION-CANDIDATES}.")
    TemporalMode temporal;

    @Option(names = "--redis", defaultValue = "single", description = "${COMPLETION-CANDIDATES}.")
    RedisMode redis;

    @Option(names = "--root", defaultValue = ".", description = "The checkout: the apps' jars and .tools/.")
    Path root;

    @Option(names = "--out", defaultValue = "target/chaos", description = "Where the run's files go.")
    Path out;

    @Override
    public Integer call() throws Exception {
        Result result = run();
        System.out.println("\n" + result.table() + "\nhistory, schedule and result in " + out);
        return result.violations().isEmpty() ? 0 : 1;
    }

    /** The run the options ask for. */
    public Result run() throws Exception {
        long seed = Objects.requireNonNullElse(this.seed, System.currentTimeMillis() % 100_000);
        boolean cluster = temporal == TemporalMode.cluster;
        boolean sentinel = redis == RedisMode.sentinel;
        Path out = Files.createDirectories(this.out);
        List<Nemesis.Fault> schedule =
                Nemesis.schedule(seed, duration, ChaosStack.targets(cluster), ChaosStack.links(sentinel));
        String plan = lines("seed " + seed + ", " + schedule.size() + " faults", schedule);
        System.out.print(plan);
        Files.writeString(out.resolve("schedule.txt"), plan);
        try (ChaosStack stack = ChaosStack.start(root, out.resolve("logs"), cluster, sentinel)) {
            ApiClient admin = new ApiClient(stack.apis().get(0));
            Tokens tokens = stack.tokens;
            Map<String, Integer> created = createSales(admin, tokens);
            List<String> sales = List.copyOf(created.keySet());
            long start = System.nanoTime();
            List<String> drift = new CopyOnWriteArrayList<>();
            ScheduledExecutorService auditor = Executors.newSingleThreadScheduledExecutor();
            auditor.scheduleWithFixedDelay(() -> audit(admin, tokens, sales, start, drift), 5, 5, TimeUnit.SECONDS);
            FutureTask<List<Nemesis.Done>> nemesis = new FutureTask<>(() -> Nemesis.run(schedule, stack, start));
            new Thread(nemesis, "nemesis").start();
            ChaosLoad load = new ChaosLoad(stack.apis(), tokens, sales, seed + 1, start);
            load.run(rate, duration);
            List<Nemesis.Done> faults = nemesis.get();
            auditor.shutdownNow();
            List<Op> history = load.repeatUnansweredChanges(SETTLE);
            settle(admin, tokens, sales);
            List<Checker.Violation> violations =
                    new ArrayList<>(Checker.check(Facts.read(stack.stores(), admin, tokens, created, history)));
            faults.stream()
                    .filter(done -> done.failure() != null)
                    .forEach(done -> violations.add(new Checker.Violation(
                            Checker.Rule.NEMESIS, done.fault() + " did not heal: " + done.failure(), List.of())));
            String table = RunTable.format(history, violations)
                    + lines("faults injected: " + faults.size(), faults)
                    + lines("drift audits: " + drift.size(), drift)
                    + "seed " + seed
                    + (cluster ? ", Temporal cluster" : ", Temporal dev server")
                    + (sentinel ? ", Redis Sentinel" : ", one Redis server") + "\n";
            try (SequenceWriter lines = JSON.writer()
                    .withRootValueSeparator("\n")
                    .writeValues(out.resolve("history.jsonl").toFile())) {
                lines.writeAll(history);
            }
            Files.writeString(out.resolve("result.txt"), table);
            return new Result(schedule, faults, history, violations, table);
        }
    }

    /** The run's sales with the units each is created with: one sells out, one does not, one expires fast. */
    private static Map<String, Integer> createSales(ApiClient admin, Tokens tokens) {
        String run = "chaos" + Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        Map<String, Integer> sales = new LinkedHashMap<>();
        for (SaleSpec spec : SALES) {
            String id = run + spec.suffix();
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
        Callable<Boolean> settled = () -> sales.stream()
                .map(sale -> Facts.audit(admin, tokens, sale))
                .allMatch(report -> report != null
                        && report.admissionsInFlight() == 0
                        && report.pendingPayment() == 0
                        && report.runningWorkflows() == 0);
        try {
            Await.until("every sale to settle", SETTLE, Duration.ofSeconds(1), settled, Boolean::booleanValue);
        } catch (Await.TimedOut notSettled) {
            System.out.println("chaos: not every sale settled within " + SETTLE + "; checking what there is");
        }
    }

    private static String lines(String head, List<?> items) {
        return items.stream().map(item -> "\n  " + item).collect(Collectors.joining("", head, "\n"));
    }

    /** A duration in seconds ({@code 90s}, or {@code 90}) or minutes ({@code 10m}). */
    static final class Seconds implements ITypeConverter<Duration> {

        @Override
        public Duration convert(String text) {
            if (!text.matches("\\d+[sm]?")) {
                throw new CommandLine.TypeConversionException("not seconds (90s) or minutes (10m): " + text);
            }
            return Duration.parse("PT" + (text.matches("\\d+") ? text + "s" : text));
        }
    }
}
