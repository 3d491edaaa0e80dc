package io.flashsale.e2e;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.TemporalService;
import io.flashsale.launcher.WorkerDeployment;
import io.flashsale.stores.testing.TestStores;
import io.flashsale.workflows.PurchaseSearchAttributes;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsResponse;
import io.temporal.api.workflowservice.v1.ListTaskQueuePartitionsRequest;
import io.temporal.api.workflowservice.v1.ListTaskQueuePartitionsResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The whole system as users run it, on the one launcher ({@link FlashSaleStack}): the real Temporal
 * dev server ({@code temporal server start-dev}, SQLite file, Web UI) or, when asked, the
 * production-like cluster, then the worker and the api as separate processes from their executable
 * jars, on a fresh MySQL schema and Redis key prefix ({@link TestStores}); and what the tests ask
 * Temporal about its purchases.
 */
final class FlashSaleSystem implements AutoCloseable {

    /** Up to a minute seen while the other test JVMs start systems of their own (e2e/pom.xml). */
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(180);

    private static final int DESCRIBED_AT_ONCE = 20;

    /**
     * Purchase requests each api of the system sends itself before it reports ready: enough to run
     * the whole warm-up, not the 10,000 that get C2 to compile the path (these apps run on C1 only,
     * below); 2,000 cost 12 s of CPU per api, a tenth of the module's CPU.
     */
    static final int WARMUP_REQUESTS = 500;

    /** Of the warm-up's admissions (a third of its requests), those that rehearse their workflow start. */
    static final int WARMUP_STARTS = 100;

    private static final AtomicInteger SYSTEMS = new AtomicInteger();

    /** Temporal, the api and the workers (killed should the test JVM exit without {@link #close()}). */
    private final FlashSaleStack stack;

    private FlashSaleSystem(FlashSaleStack stack) {
        this.stack = stack;
    }

    static FlashSaleSystem start() throws Exception {
        return start(UnaryOperator.identity());
    }

    /**
     * Starts the system with its processes' environment adjusted first, e.g. {@code MYSQL_URL}
     * through a proxy or a shorter relay claim time ({@link #with}).
     */
    static FlashSaleSystem start(UnaryOperator<Map<String, String>> adjust) throws Exception {
        return start(adjust, List.of("worker"));
    }

    /** Temporal and the api only: the test starts (and kills) every worker itself. */
    static FlashSaleSystem startWithoutWorkers(UnaryOperator<Map<String, String>> adjust) throws Exception {
        return start(adjust, List.of());
    }

    /**
     * The system on the production-like Temporal cluster (temporal-server on PostgreSQL, two
     * history hosts) instead of the dev server, whatever {@code flashsale.temporal} says.
     */
    static FlashSaleSystem startOnCluster(UnaryOperator<Map<String, String>> adjust) throws Exception {
        return start(adjust, List.of("worker"), true);
    }

    private static FlashSaleSystem start(UnaryOperator<Map<String, String>> adjust, List<String> workers)
            throws Exception {
        // -Dflashsale.temporal=cluster runs every end-to-end test on the cluster
        return start(adjust, workers, "cluster".equals(System.getProperty("flashsale.temporal", "dev")));
    }

    private static FlashSaleSystem start(
            UnaryOperator<Map<String, String>> adjust, List<String> workers, boolean onCluster) throws Exception {
        // one folder per system, so the logs of one test class stay apart
        String name = "system-" + ProcessHandle.current().pid() + "-" + SYSTEMS.incrementAndGet();
        Map<String, String> stores = storesEnvironment();
        FlashSaleStack.Builder builder = FlashSaleStack.builder(root(), Path.of("target", "e2e-logs", name))
                .readyTimeout(HEALTH_TIMEOUT)
                .jvmFlags(List.of("-Xmx384m"))
                .environment(temporal -> environment(adjust, stores, temporal.address()))
                .webUi();
        if (onCluster) {
            // a cluster of its own: fresh databases named after this system, dropped by close()
            builder.cluster("it_" + name.replace('-', '_') + "_" + Long.toString(System.currentTimeMillis(), 36));
        }
        FlashSaleSystem system = new FlashSaleSystem(builder.start());
        try {
            system.startWorkers(workers.toArray(String[]::new));
            system.stack.start(FlashSaleStack.App.API, "api");
            return system;
        } catch (Exception | AssertionError e) {
            system.close();
            throw e;
        }
    }

    private static Path root() {
        return Path.of(System.getProperty("flashsale.root", ".."));
    }

    /** The Temporal dev server of this system (its address, Web UI, process). */
    TemporalService temporal() {
        if (onDevServer()) {
            return stack.temporal();
        }
        throw new IllegalStateException("this system runs on " + stack.temporal() + ", not on the dev server");
    }

    /** The Web UI of this system's Temporal (the dev server's, or the cluster's Web UI server). */
    URI temporalWebUi() {
        return stack.temporal()
                .webUi()
                .orElseThrow(() -> new IllegalStateException(stack.temporal() + " has no Web UI"));
    }

    /** The Temporal cluster of a system started {@link #startOnCluster on the cluster}. */
    TemporalService cluster() {
        if (stack.temporal().cluster().isPresent()) {
            return stack.temporal();
        }
        throw new IllegalStateException("this system runs on " + stack.temporal() + ", not on a cluster");
    }

    URI api() {
        return stack.uri("api");
    }

    /** Starts one more worker process; workers share the task queue, Temporal spreads the work. */
    void startWorker(String name) throws Exception {
        startWorkers(name);
    }

    /**
     * The environment of a worker whose activities of {@code activityTypes} pause after their work
     * until the process is killed ({@code FLASHSALE_PAUSE_AFTER}); {@link #pausedAfter} tells which
     * did. For {@link #startWorkers(Map)}.
     */
    static Map<String, String> pausingAfter(String... activityTypes) {
        return Map.of("FLASHSALE_PAUSE_AFTER", String.join(",", activityTypes));
    }

    /** Starts several worker processes at once and waits until each is healthy. */
    void startWorkers(String... names) throws Exception {
        Map<String, Map<String, String>> workers = new LinkedHashMap<>();
        for (String name : names) {
            workers.put(name, Map.of());
        }
        startWorkers(workers);
    }

    /**
     * Starts worker processes at once, each name with environment additions of its own (e.g.
     * {@link #pausingAfter}), and waits until each is healthy.
     */
    void startWorkers(Map<String, Map<String, String>> workers) throws Exception {
        stack.start(FlashSaleStack.App.WORKER, workers);
    }

    /**
     * SIGKILL for a worker process this system started (no shutdown hook, no drain): confirms the pid
     * is that live process running the worker jar, then kills it and waits until it is gone.
     */
    void killWorker(String name) throws IOException, InterruptedException {
        stack.kill(name);
    }

    /** The pid of the process started as {@code name}, alive or killed. */
    long pid(String name) {
        return stack.process(name).pid();
    }

    /**
     * The purchases (workflow ids) whose {@code activityType} activity the worker {@code name} paused
     * after (see {@link #pausingAfter}), read from its log.
     */
    Set<String> pausedAfter(String name, String activityType) throws IOException {
        Pattern paused = Pattern.compile("paused after " + Pattern.quote(activityType) + " of (\\S+) ");
        return log(name)
                .lines()
                .map(paused::matcher)
                .filter(Matcher::find)
                .map(found -> found.group(1))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The environment every process of this system gets (MySQL schema, Redis prefix, Temporal). */
    Map<String, String> environment() {
        return stack.environment();
    }

    /** {@code environment} with {@code changes} applied. */
    static Map<String, String> with(Map<String, String> environment, Map<String, String> changes) {
        Map<String, String> changed = new HashMap<>(environment);
        changed.putAll(changes);
        return changed;
    }

    /** The test's stores ({@link TestStores}: a fresh schema and prefix), as the processes are given them. */
    private static Map<String, String> storesEnvironment() {
        Map<String, Object> stores = new HashMap<>();
        TestStores.register((name, value) -> stores.put(name, value.get()));
        return Map.of(
                "MYSQL_URL", "" + stores.get("spring.datasource.url"),
                "MYSQL_USER", "" + stores.get("spring.datasource.username"),
                "MYSQL_PASSWORD", "" + stores.get("spring.datasource.password"),
                "REDIS_URL", "" + stores.get("spring.data.redis.url"),
                "FLASHSALE_REDIS_PREFIX", "" + stores.get("flashsale.redis.key-prefix"));
    }

    private static Map<String, String> environment(
            UnaryOperator<Map<String, String>> adjust, Map<String, String> stores, String temporalAddress) {
        Map<String, String> env = new HashMap<>(stores);
        env.put("TEMPORAL_ADDRESS", temporalAddress);
        // the api warms its admission path before it reports ready, shorter than by default
        env.put("FLASHSALE_WARMUP_REQUESTS", Integer.toString(WARMUP_REQUESTS));
        env.put("FLASHSALE_WARMUP_STARTS", Integer.toString(WARMUP_STARTS));
        // the api accepts the dev JWT secret (TestTokens signs with it) only under the dev profile
        env.put("SPRING_PROFILES_ACTIVE", "dev");
        return Map.copyOf(adjust.apply(env));
    }

    /**
     * Writes the Temporal event history of every workflow still open to this system's log folder,
     * one JSON file each, so a test that gave up waiting leaves the evidence of where each stands.
     * Returns the folder.
     */
    Path dumpOpenHistories() throws IOException {
        Path logs = stack.processes().log("api").getParent();
        WorkflowServiceStubs service = temporalService();
        try {
            WorkflowClient client = WorkflowClient.newInstance(service);
            ListOpenWorkflowExecutionsRequest.Builder request = ListOpenWorkflowExecutionsRequest.newBuilder()
                    .setNamespace(client.getOptions().getNamespace());
            do {
                ListOpenWorkflowExecutionsResponse page =
                        service.blockingStub().listOpenWorkflowExecutions(request.build());
                for (WorkflowExecutionInfo workflow : page.getExecutionsList()) {
                    String workflowId = workflow.getExecution().getWorkflowId();
                    Files.writeString(
                            logs.resolve("history-" + workflowId + ".json"),
                            client.fetchHistory(workflowId).toJson(true));
                }
                request.setNextPageToken(page.getNextPageToken());
            } while (!request.getNextPageToken().isEmpty());
            return logs;
        } finally {
            service.shutdown();
        }
    }

    /**
     * How many of the runs Temporal's visibility lists for {@code query} still exist. A run deleted
     * while it was running can leave its record behind on SQL visibility (seen on the cluster: one
     * in a hundred rehearsed starts); describing it says it is gone.
     */
    long countLiveRuns(String query) {
        WorkflowServiceStubs service = temporalService();
        try {
            WorkflowClient client = WorkflowClient.newInstance(service);
            return client.listExecutions(query)
                    .filter(run -> {
                        try {
                            client.newUntypedWorkflowStub(
                                            run.getExecution().getWorkflowId(),
                                            Optional.of(run.getExecution().getRunId()),
                                            Optional.empty())
                                    .describe();
                            return true;
                        } catch (WorkflowNotFoundException gone) {
                            return false;
                        }
                    })
                    .count();
        } finally {
            service.shutdown();
        }
    }

    /** One run of a purchase workflow: its purchase (workflow id), whether it runs, its PurchaseStatus. */
    record PurchaseRun(String purchaseId, boolean running, String status) {}

    /** Every run of the sale's purchase workflows, as Temporal's visibility lists them (SaleId). */
    List<PurchaseRun> purchaseRuns(String saleId) {
        WorkflowServiceStubs service = temporalService();
        try {
            return WorkflowClient.newInstance(service)
                    .listExecutions("SaleId = '" + saleId + "'")
                    .map(run -> new PurchaseRun(
                            run.getExecution().getWorkflowId(),
                            run.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING,
                            run.getTypedSearchAttributes().get(PurchaseSearchAttributes.STATUS)))
                    .toList();
        } finally {
            service.shutdown();
        }
    }

    /** The event history of the workflow {@code workflowId} (its latest run), as Temporal holds it. */
    WorkflowExecutionHistory history(String workflowId) {
        WorkflowServiceStubs service = temporalService();
        try {
            return WorkflowClient.newInstance(service).fetchHistory(workflowId);
        } finally {
            service.shutdown();
        }
    }

    /** The purchase worker's Worker Deployment on this system's Temporal; closed by the caller. */
    WorkerDeployment workerDeployment() {
        return new WorkerDeployment(stack.temporal().address(), "default", WorkerDeployment.NAME);
    }

    /** Whether this system's Temporal is the dev server (else the production-like cluster). */
    boolean onDevServer() {
        return stack.temporal().cluster().isEmpty();
    }

    /** The partitions Temporal gives the task queue {@code taskQueue}, of its workflow and activity tasks. */
    ListTaskQueuePartitionsResponse partitions(String taskQueue) {
        WorkflowServiceStubs service = temporalService();
        try {
            return service.blockingStub()
                    .listTaskQueuePartitions(ListTaskQueuePartitionsRequest.newBuilder()
                            .setNamespace(namespace(service))
                            .setTaskQueue(TaskQueue.newBuilder().setName(taskQueue))
                            .build());
        } finally {
            service.shutdown();
        }
    }

    /** What Temporal tells of the workflow {@code workflowId} now: status, pending activities, ... */
    DescribeWorkflowExecutionResponse describe(String workflowId) {
        return describe(List.of(workflowId)).get(workflowId);
    }

    /**
     * {@link #describe(String)} of each workflow, by workflow id: asked {@value #DESCRIBED_AT_ONCE} at
     * a time over one connection, so hundreds take a few seconds without swamping the server.
     */
    Map<String, DescribeWorkflowExecutionResponse> describe(List<String> workflowIds) {
        WorkflowServiceStubs service = temporalService();
        try {
            String namespace = namespace(service);
            Map<String, DescribeWorkflowExecutionResponse> described = new LinkedHashMap<>();
            for (int from = 0; from < workflowIds.size(); from += DESCRIBED_AT_ONCE) {
                Map<String, Future<DescribeWorkflowExecutionResponse>> asked = new LinkedHashMap<>();
                for (String workflowId :
                        workflowIds.subList(from, Math.min(workflowIds.size(), from + DESCRIBED_AT_ONCE))) {
                    asked.put(
                            workflowId,
                            service.futureStub()
                                    .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
                                            .setNamespace(namespace)
                                            .setExecution(WorkflowExecution.newBuilder()
                                                    .setWorkflowId(workflowId))
                                            .build()));
                }
                asked.forEach((workflowId, answer) -> described.put(workflowId, answered(answer)));
            }
            return described;
        } finally {
            service.shutdown();
        }
    }

    private static <T> T answered(Future<T> call) {
        try {
            return call.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
    }

    /** The namespace a client of {@code service} works in (the clients' default). */
    private static String namespace(WorkflowServiceStubs service) {
        return WorkflowClient.newInstance(service).getOptions().getNamespace();
    }

    private WorkflowServiceStubs temporalService() {
        return WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget(stack.temporal().address())
                .setRpcTimeout(Duration.ofSeconds(10))
                .build());
    }

    /** What the process {@code name} (api, worker) logged so far. */
    String log(String name) throws IOException {
        return Files.readString(stack.processes().log(name));
    }

    @Override
    public void close() throws Exception {
        stack.close();
    }
}
