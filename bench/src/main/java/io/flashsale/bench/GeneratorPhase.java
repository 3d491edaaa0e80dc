package io.flashsale.bench;

import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * G: the bench's own load generator ({@link HttpLoad}) against a kept one ({@link Vegeta}) on the
 * same loads, same stack, same run, to learn whether the phases could be driven by the tool
 * instead. Two open-loop loads, each sent once by each generator, HttpLoad first, with requests of
 * the same kind but each generator's own (distinct signed buyers, distinct keys, a sale of its own):
 *
 * <ul>
 *   <li>P1's kind: sold-out answers, {@value #SOLD_OUT_RATE} purchases a second for {@value
 *       #SOLD_OUT_SECONDS} s (or the run's request cap), one buyer each, on a sold-out sale;
 *   <li>P4's kind: {@link Burst}'s arrivals for the run's units at its {@code --rate} on a fresh sale,
 *       each sale's winners settled to PENDING_PAYMENT before the next load starts (and after a
 *       warm-up sale sent by HttpLoad, when the run warms up), so no workflow of one generator's
 *       sale runs while the other sends.
 * </ul>
 *
 * Per generator and load: requests sent, answers by status and outcome, latency from each request's
 * intended send time (vegeta's own latency, from its actual send, beside it), how far its sends
 * fell behind schedule, answers a second, and its own CPU per request (HttpLoad: this JVM over the
 * run, its selector thread apart; vegeta: its process). Correct when each generator's sale has
 * exactly {@code units} admitted by its answers, with the audit clean.
 */
final class GeneratorPhase {

    static final String PHASE = "G";
    static final int SOLD_OUT_RATE = 1000;
    static final int SOLD_OUT_SECONDS = 10;

    /** The sale's size when the run names neither {@code --buyers} nor {@code --units}: a minute or two, not P4's. */
    static final int BUYERS = 2000;

    static final int UNITS = 100;

    static final String HTTP_LOAD = "HttpLoad";
    static final String VEGETA = "vegeta";

    private final Stack stack;
    private final Settings settings;
    private final Admin admin;
    private final Tokens tokens;
    private final Requests requests;
    private final HttpLoad load;
    private final Path root;
    private final Path dir;
    private final String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    GeneratorPhase(Stack stack, Settings settings, Path root, Path dir) {
        this.stack = stack;
        this.settings = settings;
        this.tokens = stack.tokens();
        this.admin = new Admin(new ApiClient(stack.api()), tokens);
        this.requests = new Requests(admin.address());
        this.load = new HttpLoad(admin.address());
        this.root = root;
        this.dir = dir;
    }

    /** The run's settings with the sale's size of this phase: {@value #BUYERS} buyers for {@value #UNITS} units at most. */
    static Settings sized(Settings settings) {
        return settings.withBurst(Math.min(BUYERS, settings.burstBuyers()), Math.min(UNITS, settings.burstUnits()));
    }

    /**
     * One generator's run of one load: its answers (latency from the intended send time), vegeta's
     * latency from its send (null for HttpLoad), its schedule, the CPU it used, and HttpLoad's
     * selector thread's part of it (null for vegeta); how it was sent.
     */
    private record Run(
            Answers answers,
            Tally fromSend,
            HttpLoad.Schedule schedule,
            long requests,
            Duration cpu,
            Duration thread,
            String sentBy) {

        double cpuMillisPerThousand(Duration used) {
            return used.toNanos() / 1e6 / Math.max(1, requests) * 1000;
        }
    }

    Report.Phase run() throws Exception {
        Vegeta vegeta = Vegeta.locateOrBuild(root, dir);
        int units = settings.burstUnits();
        Report.Phase phase = new Report.Phase(
                PHASE,
                "%s vs vegeta %s, open loop: sold-out at %,d/s; %,d buyers for %,d units at %,d/s"
                        .formatted(
                                HTTP_LOAD,
                                Vegeta.VERSION,
                                SOLD_OUT_RATE,
                                settings.burstBuyers(),
                                units,
                                settings.arrivalRate()));
        int connectionsSoldOut = soldOut(phase, vegeta);
        Run httpSale = sale(phase, vegeta, HTTP_LOAD);
        Run vegetaSale = sale(phase, vegeta, VEGETA);
        boolean correct = correct(phase, HTTP_LOAD, httpSale, units) & correct(phase, VEGETA, vegetaSale, units);
        return phase.target(
                        "each generator's sale: exactly %,d admitted, oversold 0, duplicates 0".formatted(units),
                        correct)
                .fact(
                        HTTP_LOAD + ": connections opened (sold-out, sale)",
                        List.of(connectionsSoldOut, httpSale.schedule().connections()))
                .fact(
                        "latency",
                        "from each request's intended send time (i / rate after the first), both generators;"
                                + " vegeta's own, from its actual send, as 'from its send'");
    }

    /** P1's kind of load by each generator, on a sold-out sale of its own; the connections HttpLoad opened. */
    private int soldOut(Report.Phase phase, Vegeta vegeta) throws Exception {
        int n = (int) Math.min((long) SOLD_OUT_RATE * SOLD_OUT_SECONDS, settings.maxRequests());
        Run http = httpLoad(numbered(soldOutBuyers("gsh" + run, n)), SOLD_OUT_RATE, new Tally(null));
        Run tool = vegeta(vegeta, "sold-out", soldOutBuyers("gsv" + run, n), SOLD_OUT_RATE);
        java.util.Set<String> outcomes =
                new java.util.TreeSet<>(http.answers().tally().counts().keySet());
        outcomes.addAll(tool.answers().tally().counts().keySet());
        List<Group> all = List.of(new Group("answers", outcomes.toArray(String[]::new)));
        String load = "sold-out %,d/s".formatted(SOLD_OUT_RATE);
        add(phase, load, HTTP_LOAD, http, all);
        add(phase, load, VEGETA, tool, all);
        return http.schedule().connections();
    }

    /**
     * P4's kind of load by {@code generator} on a fresh sale ({@code gh...}, {@code gv...}), whose
     * winners are PENDING_PAYMENT on return; HttpLoad's after a warm-up sale when the run warms up.
     */
    private Run sale(Report.Phase phase, Vegeta vegeta, String generator) throws Exception {
        if (generator.equals(HTTP_LOAD) && !settings.warmup().isZero()) {
            Burst warm = sale("gw" + run);
            settle("gw" + run, httpLoad(warm.requests(), settings.arrivalRate(), warm.newTally()));
        }
        String sale = saleOf(generator);
        Burst burst = sale(sale);
        Run sent = generator.equals(HTTP_LOAD)
                ? httpLoad(burst.requests(), settings.arrivalRate(), burst.newTally())
                : vegeta(vegeta, "sale", bytes(burst.requests()), settings.arrivalRate());
        add(
                phase,
                "sale",
                generator,
                settle(sale, sent),
                List.of(new Group("winners", "admitted"), new Group("losers", OpenLoopPhase.LOSERS)));
        return sent;
    }

    private String saleOf(String generator) {
        return (generator.equals(HTTP_LOAD) ? "gh" : "gv") + run;
    }

    /** A group of answers whose latency is reported: a name and its outcomes. */
    private record Group(String name, String... outcomes) {}

    private void add(Report.Phase phase, String loadName, String generator, Run run, List<Group> groups) {
        String prefix = loadName + ", " + generator;
        for (Group group : groups) {
            phase.latency(prefix + ": " + group.name(), run.answers().tally(), null, group.outcomes());
            if (run.fromSend() != null) {
                phase.latency(prefix + ": " + group.name() + " from its send", run.fromSend(), null, group.outcomes());
            }
        }
        HttpLoad.Schedule schedule = run.schedule();
        phase.value(prefix + ": requests sent", run.requests())
                .value(prefix + ": answers/s (start to last answer)", run.requests() / schedule.seconds())
                .value(prefix + ": CPU ms per 1,000 requests", run.cpuMillisPerThousand(run.cpu()))
                .value(prefix + ": sends > " + HttpLoad.LATE.toMillis() + " ms behind schedule", schedule.late())
                .value(prefix + ": send lag p99 (ms)", schedule.delayMillis(99))
                .value(prefix + ": send lag max (ms)", schedule.delayMillis(100))
                .fact(prefix + ": sent by", run.sentBy())
                .fact(prefix + ": answers by status", run.answers().statuses())
                .fact(prefix + ": outcomes", run.answers().tally().counts());
        if (run.thread() != null) {
            phase.fact(
                    prefix + ": selector thread CPU ms per 1,000 requests",
                    Report.round(run.cpuMillisPerThousand(run.thread())));
        }
    }

    /** Exactly {@code units} admitted by the generator's answers, and the sale's audit clean. */
    private boolean correct(Report.Phase phase, String generator, Run run, int units) {
        long admitted = run.answers().tally().count("admitted");
        AuditSummary audit = admin.audit(saleOf(generator));
        phase.value("sale, " + generator + ": admitted", admitted)
                .value("sale, " + generator + ": oversold (audit)", audit.oversold())
                .value("sale, " + generator + ": duplicate orders (audit)", audit.duplicateOrders())
                .fact("sale, " + generator + ": exactly " + units + " admitted", admitted == units);
        return admitted == units && audit.oversold() == 0 && audit.duplicateOrders() == 0;
    }

    /** A sold-out sale of its own, and {@code n} buyers asking for it, one request each. */
    private List<byte[]> soldOutBuyers(String sale, int n) throws Exception {
        SoldOutLoad.on(stack, settings, sale);
        return SoldOutLoad.purchases(requests, tokens, sale, n);
    }

    /** A fresh sale of the run's units and its buyers' arrivals. */
    private Burst sale(String sale) {
        admin.createSale(sale, settings.burstUnits(), Admin.NOTHING_EXPIRES);
        return Burst.of(requests, tokens, sale, settings.burstBuyers(), 4);
    }

    /** Waits until the sale's winners are PENDING_PAYMENT: nothing of it still runs when the next load starts. */
    private Run settle(String sale, Run run) throws Exception {
        admin.awaitPending(sale, run.answers().tally().count("admitted"), System.nanoTime(), Admin.SETTLE_TIMEOUT);
        return run;
    }

    private Run httpLoad(List<HttpLoad.Request> list, int perSecond, Tally tally) throws Exception {
        Answers answers = new Answers(tally);
        var threads = ManagementFactory.getThreadMXBean();
        long threadBefore = threads.getCurrentThreadCpuTime();
        Duration before = jvmCpu();
        HttpLoad.Schedule schedule = load.runOpen(
                list, perSecond, settings.warmConnections(perSecond), HttpLoad.MAX_OPEN_CONNECTIONS, answers);
        return new Run(
                answers,
                null,
                schedule,
                list.size(),
                jvmCpu().minus(before),
                Duration.ofNanos(threads.getCurrentThreadCpuTime() - threadBefore),
                "HttpLoad.runOpen at %d/s, %d connections open first, at most %d"
                        .formatted(perSecond, settings.warmConnections(perSecond), HttpLoad.MAX_OPEN_CONNECTIONS));
    }

    private static List<HttpLoad.Request> numbered(List<byte[]> list) {
        List<HttpLoad.Request> numbered = new ArrayList<>();
        for (byte[] request : list) {
            numbered.add(new HttpLoad.Request(numbered.size(), request));
        }
        return numbered;
    }

    private Run vegeta(Vegeta vegeta, String name, List<byte[]> list, int perSecond) throws Exception {
        Vegeta.Attack attack = vegeta.attack(
                name,
                list,
                perSecond,
                settings.warmConnections(perSecond),
                HttpLoad.MAX_OPEN_CONNECTIONS,
                new Tally(null));
        VegetaResults results = attack.results();
        return new Run(
                results.answers(),
                results.fromSend(),
                results.schedule(),
                results.requests(),
                attack.cpu(),
                null,
                String.join(" ", attack.command()));
    }

    private static List<byte[]> bytes(List<HttpLoad.Request> requests) {
        return requests.stream().map(HttpLoad.Request::bytes).toList();
    }

    private static Duration jvmCpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    }
}
