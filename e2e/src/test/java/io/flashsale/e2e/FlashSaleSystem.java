package io.flashsale.e2e;

import io.flashsale.bench.Processes;
import io.flashsale.bench.TemporalClusterProcesses;
import io.flashsale.bench.TemporalProcess;
import io.flashsale.bench.TemporalService;
import io.flashsale.devtemporal.DevServer;
import io.flashsale.stores.testing.TestStores;
import io.flashsale.testkit.FreePorts;
import io.flashsale.workflows.PurchaseSearchAttributes;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsResponse;
import io.temporal.client.WorkflowClient;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The whole system as users run it: the real Temporal dev server ({@code temporal server
 * start-dev}, SQLite file, Web UI), then the worker and the api, all as separate processes (the api
 * and worker from their executable jars) on a fresh MySQL schema and Redis key prefix.
 */
final class FlashSaleSystem implements AutoCloseable {

    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(90);
    private static final int DESCRIBED_AT_ONCE = 20;
    /** Purchase requests each api of the system sends itself before it reports ready. */
    static final int WARMUP_REQUESTS = 2000;

    private final int apiPort;
    /** Temporal, the api and the workers (killed should the test JVM exit without {@link #close()}). */
    private final Processes processes;

    private TemporalService temporal;
    private Map<String, String> environment;

    private FlashSaleSystem(int apiPort) throws IOException {
        this.apiPort = apiPort;
        this.processes = new Processes(logs(), HEALTH_TIMEOUT);
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
        FlashSaleSystem system = new FlashSaleSystem(FreePorts.next());
        try {
            system.temporal = onCluster
                    ? startCluster(system.processes, system.logs(), system.apiPort)
                    : startTemporal(system.processes, system.logs());
            system.environment = Map.copyOf(adjust.apply(environment(system.temporal.address())));
            system.startWorkers(workers.toArray(String[]::new));
            system.launch("api", system.jar("api"), Map.of("API_PORT", "" + system.apiPort));
            system.processes.awaitHealthy("api", system.apiPort);
            return system;
        } catch (Exception | AssertionError e) {
            system.close();
            throw e;
        }
    }

    /**
     * The real Temporal dev server with its Web UI on a free port and its state in a SQLite file of
     * this system's log folder, so it can be killed and started again with nothing lost.
     */
    private static TemporalProcess startTemporal(Processes processes, Path logs) throws Exception {
        DevServer.Options options = DevServer.Options.onPort(FreePorts.next())
                .withUi(FreePorts.next())
                .withDbFile(logs.toAbsolutePath().resolve("temporal.db"));
        Files.deleteIfExists(options.dbFile());
        TemporalProcess temporal =
                TemporalProcess.start(processes, root(), options, DevServer.Kind.CLI, System.out::println);
        if (temporal.kind() != DevServer.Kind.CLI) {
            throw new IllegalStateException("the end-to-end tests need the real Temporal dev server (the Temporal"
                    + " CLI, built with Go when missing): see " + root().resolve(".tools"));
        }
        return temporal;
    }

    /** A cluster of its own: fresh databases named after this system, dropped by {@link #close()}. */
    private static TemporalClusterProcesses startCluster(Processes processes, Path logs, int apiPort) throws Exception {
        String name = "it_" + apiPort + "_" + Long.toString(System.currentTimeMillis(), 36);
        return TemporalClusterProcesses.start(
                processes, root(), name, logs.toAbsolutePath().resolve("temporal-cluster"), System.out::println);
    }

    private static Path root() {
        return Path.of(System.getProperty("flashsale.root", ".."));
    }

    /** The Temporal dev server of this system (its address, Web UI, process). */
    TemporalProcess temporal() {
        if (temporal instanceof TemporalProcess dev) {
            return dev;
        }
        throw new IllegalStateException("this system runs on " + temporal + ", not on the dev server");
    }

    /** The Web UI of this system's Temporal (the dev server's, or the cluster's Web UI server). */
    URI temporalWebUi() {
        return temporal.webUi().orElseThrow(() -> new IllegalStateException(temporal + " has no Web UI"));
    }

    /** The Temporal cluster of a system started {@link #startOnCluster on the cluster}. */
    TemporalClusterProcesses cluster() {
        if (temporal instanceof TemporalClusterProcesses cluster) {
            return cluster;
        }
        throw new IllegalStateException("this system runs on " + temporal + ", not on a cluster");
    }

    URI api() {
        return URI.create("http://127.0.0.1:" + apiPort);
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
        Map<String, Integer> ports = new HashMap<>();
        for (Map.Entry<String, Map<String, String>> worker : workers.entrySet()) {
            String name = worker.getKey();
            ports.put(name, FreePorts.next());
            launch(name, jar("worker"), with(worker.getValue(), Map.of("WORKER_PORT", "" + ports.get(name))));
        }
        for (String name : workers.keySet()) {
            processes.awaitHealthy(name, ports.get(name));
        }
    }

    /**
     * SIGKILL for a worker process this system started (no shutdown hook, no drain): confirms the pid
     * is that live process running the worker jar, then kills it and waits until it is gone.
     */
    void killWorker(String name) throws IOException, InterruptedException {
        Process process = processes.get(name);
        ProcessHandle handle = ProcessHandle.of(process.pid()).orElseThrow(() -> new AssertionError(name + " is gone"));
        String command = handle.info().commandLine().orElse("");
        if (!handle.isAlive() || !command.contains(jar("worker"))) {
            throw new AssertionError("pid " + process.pid() + " is not the live worker " + name + ": " + command);
        }
        handle.destroyForcibly();
        process.waitFor();
    }

    /** The pid of the process started as {@code name}, alive or killed. */
    long pid(String name) {
        return processes.get(name).pid();
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
        return environment;
    }

    /** {@code environment} with {@code changes} applied. */
    static Map<String, String> with(Map<String, String> environment, Map<String, String> changes) {
        Map<String, String> changed = new HashMap<>(environment);
        changed.putAll(changes);
        return changed;
    }

    private static Map<String, String> environment(String temporalAddress) {
        Map<String, Object> stores = new HashMap<>();
        TestStores.register((name, value) -> stores.put(name, value.get()));
        return Map.of(
                "MYSQL_URL", "" + stores.get("spring.datasource.url"),
                "MYSQL_USER", "" + stores.get("spring.datasource.username"),
                "MYSQL_PASSWORD", "" + stores.get("spring.datasource.password"),
                "REDIS_URL", "" + stores.get("spring.data.redis.url"),
                "FLASHSALE_REDIS_PREFIX", "" + stores.get("flashsale.redis.key-prefix"),
                "TEMPORAL_ADDRESS", temporalAddress,
                // the api warms its admission path before it reports ready, shorter than by default
                "FLASHSALE_WARMUP_REQUESTS", Integer.toString(WARMUP_REQUESTS),
                // the api accepts the dev JWT secret (TestTokens signs with it) only under the dev profile
                "SPRING_PROFILES_ACTIVE", "dev");
    }

    private void launch(String name, String jar, Map<String, String> extra) throws IOException {
        processes.start(
                name,
                List.of(Processes.java(), "-Xmx384m", "-XX:TieredStopAtLevel=1", "-jar", jar),
                with(environment, extra));
    }

    /**
     * The module's executable jar, copied once per system: processes started later (extra workers)
     * keep reading the jar they started from even when a build replaces it in the meantime.
     */
    private String jar(String module) throws IOException {
        Path copy = logs().resolve(module + ".jar");
        if (!Files.exists(copy)) {
            Files.createDirectories(logs());
            Files.copy(Path.of(System.getProperty("flashsale." + module + ".jar")), copy);
        }
        return copy.toAbsolutePath().toString();
    }

    /**
     * Writes the Temporal event history of every workflow still open to this system's log folder,
     * one JSON file each, so a test that gave up waiting leaves the evidence of where each stands.
     * Returns the folder.
     */
    Path dumpOpenHistories() throws IOException {
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
                            logs().resolve("history-" + workflowId + ".json"),
                            client.fetchHistory(workflowId).toJson(true));
                }
                request.setNextPageToken(page.getNextPageToken());
            } while (!request.getNextPageToken().isEmpty());
            return logs();
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
            String namespace = WorkflowClient.newInstance(service).getOptions().getNamespace();
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

    private WorkflowServiceStubs temporalService() {
        return WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget(temporal.address())
                .setRpcTimeout(Duration.ofSeconds(10))
                .build());
    }

    /** What the process {@code name} (api, worker) logged so far. */
    String log(String name) throws IOException {
        return Files.readString(processes.log(name));
    }

    /** One folder per system (named by its api port), so the logs of one test class stay apart. */
    private Path logs() {
        return Path.of("target", "e2e-logs", "system-" + apiPort);
    }

    @Override
    public void close() throws Exception {
        processes.close();
        for (String module : List.of("api", "worker")) {
            Files.deleteIfExists(logs().resolve(module + ".jar"));
        }
        if (temporal instanceof TemporalClusterProcesses cluster) {
            // every node has stopped: its databases go too (the logs stay)
            cluster.cluster().dropDatabases();
        }
    }
}
