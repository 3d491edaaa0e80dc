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
        int n = settings.settleWorkflows();
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
            Settled trivial = trivial(client, "p3t" + run, n);
            return new Report.Phase("P3", "settle rate: admitted -> PENDING_PAYMENT vs trivial 3-step workflow")
                    .value("purchase settle rate (/s)", purchases.rate())
                    .value("purchase settle time (s)", purchases.seconds())
                    .value("trivial workflows completed (/s)", trivial.rate())
                    .value("trivial settle time (s)", trivial.seconds())
                    .value("workflows", n)
                    .value("api allocation per admission, its workflow's start included (KB)", allocationPerAdmission)
                    .ratio(
                            purchases.rate() / trivial.rate(),
                            0.8,
                            "purchase settle rate / trivial workflows' rate >= 0.8")
                    .fact("purchases settled", purchases.count())
                    .fact("trivial completed", trivial.count());
        } finally {
            worker.destroy();
            worker.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Purchases settled (or workflows completed) in so many seconds, and each process's CPU ms per one. */
    record Settled(long count, double seconds, Map<String, Double> cpuMillisPerPurchase) {
        double rate() {
            return count / seconds;
        }
    }

    /** {@code n} buyers of a new sale, admitted and settled to PENDING_PAYMENT on this stack. */
    Settled settle(String sale, int n) throws Exception {
        String id = sale + run;
        admin.createSale(id, n, Admin.NOTHING_EXPIRES);
        List<byte[]> buyers = requests().purchases(stack.tokens(), id, n);
        Map<String, Duration> before = cpu.read();
        long start = System.nanoTime();
        long admitted = TimedLoad.each(load(), buyers, settings.connections()).count("admitted");
        double seconds = admin.awaitPending(id, admitted, start);
        return new Settled(admitted, seconds, cpu.millisPer(before, admitted));
    }

    private String address() {
        return stack.temporal().address();
    }

    /** {@code n} trivial workflows started from as many threads as the run has connections, until all completed. */
    private Settled trivial(WorkflowClient client, String prefix, int n) throws Exception {
        ExecutorService starters = Executors.newFixedThreadPool(Math.min(settings.connections(), n));
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
        return new Settled(n, (System.nanoTime() - start) / 1e9, Map.of());
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
