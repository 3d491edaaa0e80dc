package io.flashsale.launcher.cluster;

import com.google.protobuf.util.Durations;
import io.flashsale.launcher.Await;
import io.flashsale.launcher.Http;
import io.flashsale.launcher.Launch;
import io.flashsale.launcher.Processes;
import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.launcher.temporal.GoTool;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.RegisterNamespaceRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * A production-like Temporal cluster ({@link ClusterSpec}) and its programs in {@code binaries}:
 * {@code server}, {@code sql} (temporal-sql-tool) and {@code tdbg} (the server's own debugging tool),
 * built from the Go module {@code go.temporal.io/server} into {@code .tools/} or taken from {@code
 * TEMPORAL_SERVER_BIN}, a folder holding those three. {@link #start} writes the configuration,
 * brings the PostgreSQL schema up to date, starts every node (and the Web UI server when it can be
 * built) through a {@link Launch}, which owns the processes by their own pids, then registers the
 * namespace and the purchase search attributes once the frontend answers.
 */
public record TemporalCluster(ClusterSpec spec, Path binaries) {

    /** The server the Temporal CLI v1.5.1 embeds, so the dev server and the cluster run the same engine. */
    public static final String SERVER_VERSION = "v1.29.1";

    private static final String MODULE = "go.temporal.io/server@" + SERVER_VERSION;

    /** The Web UI server the same CLI embeds in its dev server. */
    private static final String UI_MODULE = "github.com/temporalio/ui-server/v2@v2.42.1";

    private static final String EMBEDDED_SCHEMA = "postgresql/v12/";

    /** How long the cluster may take to take purchases, at start and after a node's restart. */
    public static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    /** How long a closed purchase's history stays: long enough to look at a sale afterwards. */
    private static final Duration RETENTION = Duration.ofDays(3);

    /** The name of the Web UI server's process; the nodes' are {@code temporal-NODE}. */
    private static final String UI = "temporal-ui";

    /**
     * Builds what is missing, prepares {@code spec} (with its Web UI on {@code uiPort} when the UI
     * server can be built) and starts its nodes through {@code launch}: the frontend first (the
     * first node to start writes the cluster's metadata; several at once on new databases race for
     * it and the losers exit), the rest once it listens; returns once the namespace takes purchases.
     */
    public static TemporalCluster start(
            Path root, ClusterSpec spec, IntSupplier uiPort, Launch launch, Consumer<String> log) throws Exception {
        Optional<Path> ui = GoTool.inModule(root, "temporal-ui-server", UI_MODULE, List.of("./cmd/server"), log)
                .program("server");
        TemporalCluster cluster =
                new TemporalCluster(ui.isPresent() ? spec.withUi(uiPort.getAsInt()) : spec, binaries(root, log));
        cluster.spec.write();
        cluster.applySchema(cluster.spec.database(), "temporal", log);
        cluster.applySchema(cluster.spec.visibilityDatabase(), "visibility", log);
        ClusterSpec.Node frontend = spec.node(ClusterSpec.FRONTEND);
        launch.start(processName(frontend), cluster.command(frontend));
        Await.until(
                "the frontend of " + cluster,
                READY_TIMEOUT,
                () -> launch.alive(processName(frontend)),
                () -> Http.listening(spec.ip(), frontend.grpcPort()));
        for (ClusterSpec.Node node : spec.nodes()) {
            if (!node.equals(frontend)) {
                launch.start(processName(node), cluster.command(node));
            }
        }
        cluster.awaitReady(() -> spec.nodes().stream().allMatch(node -> launch.alive(processName(node))));
        if (ui.isPresent()) {
            String folder = cluster.spec.folder().toString();
            launch.start(UI, List.of(ui.get().toString(), "--root", folder, "--config", "ui", "--env", "ui", "start"));
        }
        return cluster;
    }

    /** The folder of TEMPORAL_SERVER_BIN, else the programs built when missing; fails saying why when neither works. */
    private static Path binaries(Path root, Consumer<String> log) {
        String configured = System.getenv("TEMPORAL_SERVER_BIN");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return GoTool.inModule(
                        root,
                        "temporal-server",
                        MODULE,
                        List.of("./cmd/server", "./cmd/tools/sql", "./cmd/tools/tdbg"),
                        log)
                .locateOrBuild("server", "sql", "tdbg")
                .orElseThrow(() -> new IllegalStateException("no temporal-server: the build of " + MODULE
                        + " failed or there is no Go (or set TEMPORAL_SERVER_BIN)"));
    }

    /** {@code temporal-NODE}: the name of the node's process. */
    public static String processName(ClusterSpec.Node node) {
        return "temporal-" + node.name();
    }

    /** What the command line of the node {@code nodeName} holds, and no other node's. */
    public static String marker(String nodeName) {
        return "--env " + nodeName + " --allow-no-auth";
    }

    /** The server's own debugging tool (membership, shard owners). */
    public Path tdbg() {
        return binaries.resolve("tdbg");
    }

    /** {@code temporal-server ... start --service S} of {@code node}, reading its own {@code config/NODE.yaml}. */
    public List<String> command(ClusterSpec.Node node) {
        return List.of(
                binaries.resolve("server").toString(),
                "--root",
                spec.folder().toString(),
                "--config",
                spec.folder().relativize(spec.configFolder()).toString(),
                "--env",
                node.name(),
                "--allow-no-auth",
                "start",
                "--service",
                node.service());
    }

    /**
     * Registers the namespace (an existing one is fine) and the purchase search attributes as soon
     * as the frontend takes them, then waits until the namespace lists them; fails when {@code
     * alive} turns false or after {@link #READY_TIMEOUT}.
     */
    public void awaitReady(BooleanSupplier alive) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget(spec.address())
                .setRpcTimeout(Duration.ofSeconds(5))
                .validateAndBuildWithDefaults());
        try {
            Await.until(this + " taking its namespace", READY_TIMEOUT, alive, () -> {
                register(service);
                DevServer.register(spec.address(), spec.namespace());
                return true;
            });
        } finally {
            service.shutdownNow();
        }
        DevServer.awaitReady(
                spec.address(), spec.namespace(), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())), alive);
    }

    private void register(WorkflowServiceStubs service) {
        try {
            service.blockingStub()
                    .registerNamespace(RegisterNamespaceRequest.newBuilder()
                            .setNamespace(spec.namespace())
                            .setWorkflowExecutionRetentionPeriod(Durations.fromSeconds(RETENTION.toSeconds()))
                            .build());
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS) {
                throw e;
            }
        }
    }

    /**
     * Creates {@code database} and brings it to the server's latest {@code schema} version from the
     * schema files embedded in the sql tool, as an operator upgrading a cluster would; on a database
     * that exists already it only applies what is missing.
     */
    private void applySchema(String database, String schema, Consumer<String> log)
            throws IOException, InterruptedException {
        log.accept("schema " + schema + " on database " + database);
        String created = sqlTool(database, "create-database");
        if (!created.isEmpty() && !created.contains("already exists")) {
            throw new IllegalStateException("cannot create database " + database + ": " + created);
        }
        // version 0.0 only creates the versioning tables; update-schema applies every version after it
        String failure = sqlTool(database, "setup-schema", "-v", "0.0");
        if (failure.isEmpty()) {
            failure = sqlTool(database, "update-schema", "--schema-name", EMBEDDED_SCHEMA + schema);
        }
        if (!failure.isEmpty()) {
            throw new IllegalStateException("temporal-sql-tool failed on " + database + ": " + failure);
        }
    }

    /** Drops the cluster's databases; only once every node has stopped. */
    public void dropDatabases() throws IOException, InterruptedException {
        for (String database : List.of(spec.database(), spec.visibilityDatabase())) {
            sqlTool(database, "drop-database", "--force");
        }
    }

    /** Runs the sql tool; empty when it exited 0, else its output (in {@code sql-tool.log} of the cluster's folder). */
    private String sqlTool(String database, String... command) throws IOException, InterruptedException {
        ClusterSpec.Postgres postgres = spec.postgres();
        List<String> arguments = new ArrayList<>(List.of(
                binaries.resolve("sql").toString(),
                "--plugin",
                "postgres12",
                "--ep",
                postgres.host(),
                "-p",
                "" + postgres.port(),
                "-u",
                postgres.user(),
                "--db",
                database));
        arguments.addAll(List.of(command));
        Path log = spec.folder().resolve("sql-tool.log");
        Files.deleteIfExists(log);
        int exit = Processes.exec(arguments, Map.of("SQL_PASSWORD", postgres.password()), log, Duration.ofMinutes(2));
        return exit == 0
                ? ""
                : exit < 0
                        ? "timed out: " + String.join(" ", command)
                        : Files.readString(log).strip();
    }

    @Override
    public String toString() {
        return "Temporal cluster " + spec.name() + " (" + spec.shards() + " shards, "
                + spec.historyHosts().size() + " history hosts) on " + spec.address();
    }
}
