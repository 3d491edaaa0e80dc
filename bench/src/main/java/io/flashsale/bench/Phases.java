package io.flashsale.bench;

import io.flashsale.launcher.PrivateStores;
import io.flashsale.testkit.ApiClient;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * What the phases on one stack share: the stack, its stores, the run's settings, an admin client of
 * its api, a CPU meter of its processes and a tag that keeps this run's sale ids apart. P3 is here;
 * the other phases are classes of their own.
 */
record Phases(Stack stack, PrivateStores stores, Settings settings, Admin admin, CpuMeter cpu, String run) {

    static final int SOLD_OUT_BUYERS = 2000;

    static Phases on(Stack stack, PrivateStores stores, Settings settings, String run) {
        return new Phases(
                stack,
                stores,
                settings,
                new Admin(new ApiClient(stack.api()), stack.tokens()),
                CpuMeter.of(stack),
                run);
    }

    HttpLoad load() {
        return new HttpLoad(admin.address());
    }

    Requests requests() {
        return new Requests(admin.address());
    }

    /**
     * A sold-out sale's buyers (P1, the curve, P5): the sale {@code sale} with one unit, sold to a
     * buyer outside the measured ones, then {@value #SOLD_OUT_BUYERS} distinct signed buyers asking
     * for it in rotation, each answered sold-out by the admission script.
     */
    HttpLoad.Source soldOut(String sale) throws Exception {
        admin.createSale(sale, 1, Admin.NOTHING_EXPIRES);
        byte[] owner = requests().purchase(sale, stack.tokens().buyer(sale + "owner"), "k-owner");
        Tally sold = TimedLoad.each(load(), List.of(owner), 1);
        if (sold.count("admitted") != 1) {
            throw new IllegalStateException("selling out " + sale + " failed: " + sold.counts());
        }
        return TimedLoad.cycle(requests().purchases(stack.tokens(), sale, SOLD_OUT_BUYERS));
    }

    /** {@code source} for {@code duration} (or the run's request cap) at {@code connections}. */
    Tally timed(HttpLoad.Source source, Duration duration, int connections) throws Exception {
        return TimedLoad.run(load(), source, connections, settings.maxRequests(), duration);
    }

    /** P3: admitted to PENDING_PAYMENT per second against a trivial 3-step workflow, same Temporal. */
    Report.Phase p3() throws Exception {
        int n = settings.settleWorkflows;
        settle("p3w", Math.min(200, n));
        long apiPid = stack.process("api").pid();
        double allocated = admin.allocatedBytes(apiPid);
        Settled purchases = settle("p3", n);
        double allocationPerAdmission =
                (admin.allocatedBytes(apiPid) - allocated) / Math.max(1, purchases.count()) / 1024;
        Process worker = stack.launch("trivial-worker", TrivialWorker.class, List.of(), TrivialWorker.READY, address());
        try {
            WorkflowClient client = TrivialWorker.client(address());
            trivial(client, "p3tw" + run, Math.min(200, n));
            double trivialSeconds = trivial(client, "p3t" + run, n);
            return new Report.Phase("P3", "settle rate: admitted -> PENDING_PAYMENT vs trivial 3-step workflow")
                    .value("purchase settle rate (/s)", purchases.rate())
                    .value("purchase settle time (s)", purchases.seconds())
                    .value("trivial workflows completed (/s)", n / trivialSeconds)
                    .value("trivial settle time (s)", trivialSeconds)
                    .value("workflows", n)
                    .value("api allocation per admission, its workflow's start included (KB)", allocationPerAdmission)
                    .ratio(
                            purchases.rate() / (n / trivialSeconds),
                            0.8,
                            "purchase settle rate / trivial workflows' rate >= 0.8")
                    .fact("purchases settled", purchases.count())
                    .fact("trivial completed", (long) n);
        } finally {
            worker.destroy();
            worker.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A sale's buyers answered and settled: the answers, the seconds until every winner's order was
     * PENDING_PAYMENT, and each process's CPU ms over both per buyer request and per winner.
     */
    record Settled(Tally tally, double seconds, Map<String, Double> cpuPerRequest, Map<String, Double> cpuPerWinner) {

        long count() {
            return tally.count("admitted");
        }

        double rate() {
            return count() / seconds;
        }
    }

    /** {@code n} buyers of a new sale of {@code n} units, its id {@code sale} tagged with the run's. */
    Settled settle(String sale, int n) throws Exception {
        return settle(sale + run, n, n);
    }

    /**
     * {@code buyers} buyers of a new sale {@code sale} of {@code units}, one request each, closed loop
     * at the run's connections, then the wait until every winner's order is PENDING_PAYMENT.
     */
    Settled settle(String sale, int units, int buyers) throws Exception {
        admin.createSale(sale, units, Admin.NOTHING_EXPIRES);
        List<byte[]> purchases = requests().purchases(stack.tokens(), sale, buyers);
        Map<String, Duration> before = cpu.read();
        long start = System.nanoTime();
        Tally tally = TimedLoad.each(load(), purchases, settings.connections, new Tally(i -> Requests.user(sale, i)));
        long winners = tally.count("admitted");
        double seconds = admin.awaitPending(sale, winners, start);
        return new Settled(tally, seconds, cpu.millisPer(before, buyers), cpu.millisPer(before, winners));
    }

    private String address() {
        return stack.temporal().address();
    }

    /** Seconds until {@code n} trivial workflows, started from as many threads as the run has connections, completed. */
    private double trivial(WorkflowClient client, String prefix, int n) throws Exception {
        ExecutorService starters = Executors.newFixedThreadPool(Math.min(settings.connections, n));
        long start = System.nanoTime();
        try {
            CompletableFuture<?>[] results = IntStream.range(0, n)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> start(client, prefix + "-" + i), starters)
                            .thenCompose(stub -> stub.getResultAsync(String.class)))
                    .toArray(CompletableFuture[]::new);
            CompletableFuture.allOf(results).get(Admin.SETTLE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            starters.shutdownNow();
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static WorkflowStub start(WorkflowClient client, String id) {
        WorkflowOptions options = WorkflowOptions.newBuilder()
                .setWorkflowId(id)
                .setTaskQueue(TrivialWorkflow.TASK_QUEUE)
                .build();
        WorkflowStub stub = client.newUntypedWorkflowStub("TrivialWorkflow", options);
        stub.start(id);
        return stub;
    }
}
