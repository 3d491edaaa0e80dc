package io.flashsale.bench;

import io.flashsale.launcher.PrivateStores;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The phases on a running stack, each answering a {@link Report.Phase}: P3 here, the others in
 * classes of their own.
 */
final class Phases {

    private final Stack stack;
    private final PrivateStores stores;
    private final Settings settings;
    private final Tokens tokens;
    private final Admin admin;
    private final HttpLoad apiLoad;
    private final Requests apiRequests;
    private final String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
    private final SoldOutPhases soldOut;
    private final CpuMeter cpu;

    Phases(Stack stack, PrivateStores stores, Settings settings, Tokens tokens) {
        this.stack = stack;
        this.stores = stores;
        this.settings = settings;
        this.tokens = tokens;
        this.admin = new Admin(new ApiClient(stack.api()), tokens);
        this.apiLoad = new HttpLoad(admin.address());
        this.apiRequests = new Requests(admin.address());
        this.soldOut = new SoldOutPhases(stack, settings, run, admin);
        this.cpu = CpuMeter.of(stack);
    }

    /** P1: the sold-out purchase path against liveness ({@link SoldOutPhases}). */
    Report.Phase p1() throws Exception {
        return soldOut.p1();
    }

    /** The load curve of the sold-out purchase path ({@link SoldOutPhases}). */
    Report.Phase curve() throws Exception {
        return soldOut.curve();
    }

    /** P2: the contest with stock, api against the DB-only baseline ({@link ContestPhase}). */
    Report.Phase p2() throws Exception {
        return new ContestPhase(stack, stores, settings, admin, tokens, run, cpu).run();
    }

    /** P3: admitted to PENDING_PAYMENT per second against a trivial 3-step workflow, same Temporal. */
    Report.Phase p3() throws Exception {
        int n = settings.settleWorkflows();
        settle("p3w" + run, Math.min(200, n));
        long apiPid = stack.process("api").pid();
        double allocated = admin.allocatedBytes(apiPid);
        Settled purchases = settle("p3" + run, n);
        double allocationPerAdmission =
                (admin.allocatedBytes(apiPid) - allocated) / Math.max(1, purchases.count()) / 1024;
        Process worker = stack.launchBenchProcess("trivial-worker", List.of("trivial-worker", stack.temporalAddress()));
        try {
            stack.awaitLog("trivial-worker", "trivial worker ready", Duration.ofSeconds(60));
            WorkflowClient client = client();
            trivial(client, "p3tw" + run, Math.min(200, n));
            Settled trivial = trivial(client, "p3t" + run, n);
            double ratio = purchases.rate() / trivial.rate();
            return new Report.Phase("P3", "settle rate: admitted -> PENDING_PAYMENT vs trivial 3-step workflow")
                    .value("purchase settle rate (/s)", purchases.rate())
                    .value("purchase settle time (s)", purchases.seconds())
                    .value("trivial workflows completed (/s)", trivial.rate())
                    .value("trivial settle time (s)", trivial.seconds())
                    .value("workflows", n)
                    .value("api allocation per admission, its workflow's start included (KB)", allocationPerAdmission)
                    .ratio(ratio, 0.8, "purchase settle rate / trivial workflows' rate >= 0.8")
                    .fact("purchases settled", purchases.count())
                    .fact("trivial completed", trivial.count());
        } finally {
            worker.destroy();
            worker.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** P4: the open-loop flash sale ({@link OpenLoopPhase}). */
    Report.Phase p4() throws Exception {
        return new OpenLoopPhase(settings, stores, admin, tokens, run).run();
    }

    /** What {@link #settleRun} measured: settled per second, and each process's CPU ms per settled purchase. */
    record SettleRun(long count, double rate, Map<String, Double> cpuMillisPerPurchase) {}

    /** {@code n} buyers of a new sale {@code sale}, admitted and settled to PENDING_PAYMENT on this stack. */
    SettleRun settleRun(String sale, int n) throws Exception {
        Map<String, Duration> before = cpu.read();
        Settled settled = settle(sale + run, n);
        return new SettleRun(settled.count(), settled.rate(), cpu.millisPer(before, settled.count()));
    }

    private record Settled(long count, double seconds) {
        double rate() {
            return count / seconds;
        }
    }

    private Settled settle(String sale, int n) throws Exception {
        admin.createSale(sale, n, Admin.NOTHING_EXPIRES);
        List<byte[]> buyers = SoldOutLoad.purchases(apiRequests, tokens, sale, n);
        long start = System.nanoTime();
        Tally tally = TimedLoad.each(apiLoad, buyers, settings.connections());
        long admitted = tally.count("admitted");
        return new Settled(admitted, admin.awaitPending(sale, admitted, start, Admin.SETTLE_TIMEOUT));
    }

    private Settled trivial(WorkflowClient client, String prefix, int n) throws Exception {
        ExecutorService starters = Executors.newFixedThreadPool(Math.min(settings.connections(), n));
        List<CompletableFuture<String>> results = new ArrayList<>();
        long start = System.nanoTime();
        try {
            List<java.util.concurrent.Future<CompletableFuture<String>>> started = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String id = prefix + "-" + i;
                started.add(starters.submit(() -> {
                    WorkflowStub stub = client.newUntypedWorkflowStub(
                            "TrivialWorkflow",
                            WorkflowOptions.newBuilder()
                                    .setWorkflowId(id)
                                    .setTaskQueue(TrivialWorkflow.TASK_QUEUE)
                                    .build());
                    stub.start(id);
                    return stub.getResultAsync(String.class);
                }));
            }
            for (var future : started) {
                results.add(future.get());
            }
            CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                    .get(Admin.SETTLE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            starters.shutdownNow();
        }
        return new Settled(n, (System.nanoTime() - start) / 1e9);
    }

    private WorkflowClient client() {
        WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget(stack.temporalAddress())
                .build());
        return WorkflowClient.newInstance(
                service,
                WorkflowClientOptions.newBuilder().setNamespace("default").build());
    }
}
