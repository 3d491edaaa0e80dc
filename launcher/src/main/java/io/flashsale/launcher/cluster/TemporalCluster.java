package io.flashsale.launcher.cluster;

import com.google.protobuf.util.Durations;
import io.flashsale.launcher.Await;
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
 * A production-like Temporal cluster ({@link ClusterSpec}) and the folder of its programs: {@code
 * server}, {@code sql} (temporal-sql-tool) and {@code tdbg} (the server's debugging tool), built
 * into {@code .tools/} or the folder named by {@code TEMPORAL_SERVER_BIN}.
 */
public record TemporalCluster(ClusterSpec spec, Path binaries) {

    /** The server the Temporal CLI v1.5.1 embeds, so the dev server and the cluster run the same engine. */
    public static final String SERVER_VERSION = "v1.29.1";

    private static final String MODULE = "go.temporal.io/server@" + SERVER_VERSION;

    /** The Web UI server the same CLI embeds in its dev server. */
    private static final String UI_MODULE = "github.com/temporalio/ui-server/v2@v2.42.1";

    /** How long the cluster may take to take purchases, at start and after a node's restart. */
    public static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    /** How long a closed purchase's history stays: long enough to look at a sale afterwards. */
    private static final Duration RETENTION = Duration.ofDays(3);

    /**
     * Builds what is missing, writes the configuration (the Web UI on {@code uiPort} when its server
     * builds), updates the schemas and starts the frontend, then the other nodes once it listens (the
     * first node on new databases writes the cluster's metadata; racing nodes exit); returns once ready.
     */
    public static TemporalCluster start(
            Path root, ClusterSpec spec, IntSupplier uiPort, Launch launch, Consumer<String> log) throws Exception {
        Optional<Path> ui = GoTool.inModule(root, "temporal-ui-server", UI_MODULE, List.of("./cmd/server"), log)
                .program("server");
        TemporalCluster cluster =
                new TemporalCluster(ui.isPresent() ? spec.withUi(uiPort.getAsInt()) : spec, binaries(root, log));
        cluster.spec.write();
        cluster.applySchema(cluster.spec.database(), "temporal", log);
        cluster.applySchema(cluster.spec.database() + "_visibility", "visibility", log);
        ClusterSpec.Node frontend = spec.node(ClusterSpec.FRONTEND);
        launch.start(processName(frontend), cluster.command(frontend));
        Await.until(
                "the frontend of " + cluster,
                READY_TIMEOUT,
                () -> launch.alive(processName(frontend)),
                () -> Await.listening(spec.ip(), frontend.grpcPort()));
        for (ClusterSpec.Node node : spec.nodes().subList(1, spec.nodes().size())) {
            launch.start(processName(node), cluster.command(node));
        }
        cluster.awaitReady(() -> spec.nodes().stream().allMatch(node -> launch.alive(processName(node))));
        if (ui.isPresent()) {
            String folder = cluster.spec.folder().toString();
            List<String> command =
                    List.of(ui.get().toString(), "--root", folder, "--config", "ui", "--env", "ui", "start");
            launch.start("temporal-ui", command);
        }
        return cluster;
    }

    private static Path binaries(Path root, Consumer<String> log) {
        return GoTool.configured("TEMPORAL_SERVER_BIN")
                .or(() -> GoTool.inModule(
                                root,
                                "temporal-server",
                                MODULE,
                                List.of("./cmd/server", "./cmd/tools/sql", "./cmd/tools/tdbg"),
                                log)
                        .program("server")
                        .map(Path::getParent))
                .orElseThrow(() -> new IllegalStateException("no temporal-server: the build of " + MODULE
                        + " failed or there is no Go (or set TEMPORAL_SERVER_BIN)"));
    }

    /** {@code temporal-NODE}: the name of the node's process. */
    public static String processName(ClusterSpec.Node node) {
        return "temporal-" + node.name();
    }

    /** The server's own debugging tool (membership, shard owners). */
    public Path tdbg() {
        return binaries.resolve("tdbg");
    }

    /** {@code temporal-server ... start --service S} of {@code node}, reading its own {@code config/NODE.yaml}. */
    public List<String> command(ClusterSpec.Node node) {
        List<String> command =
                new ArrayList<>(List.of(binaries.resolve("server").toString()));
        command.addAll(List.of("--root", spec.folder().toString(), "--config", "config", "--env", node.name()));
        command.addAll(List.of("--allow-no-auth", "start", "--service", node.service()));
        return command;
    }

    /** Registers the namespace and the purchase search attributes; waits until it lists them while {@code alive}. */
    public void awaitReady(BooleanSupplier alive) throws InterruptedException {
        WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget(spec.address())
                .setRpcTimeout(Duration.ofSeconds(5))
                .validateAndBuildWithDefaults());
        RegisterNamespaceRequest namespace = RegisterNamespaceRequest.newBuilder()
                .setNamespace(spec.namespace())
                .setWorkflowExecutionRetentionPeriod(Durations.fromSeconds(RETENTION.toSeconds()))
                .build();
        try {
            Await.until(this + " taking its namespace", READY_TIMEOUT, alive, () -> {
                try {
                    service.blockingStub().registerNamespace(namespace);
                } catch (StatusRuntimeException e) {
                    if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS) {
                        throw e;
                    }
                }
                DevServer.register(spec.address(), spec.namespace());
                return true;
            });
        } finally {
            service.shutdownNow();
        }
        DevServer.awaitReady(spec.address(), spec.namespace(), READY_TIMEOUT, alive);
    }

    /** Creates {@code database} when missing and applies what it lacks of the sql tool's embedded {@code schema}. */
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
            failure = sqlTool(database, "update-schema", "--schema-name", "postgresql/v12/" + schema);
        }
        if (!failure.isEmpty()) {
            throw new IllegalStateException("temporal-sql-tool failed on " + database + ": " + failure);
        }
    }

    /** Drops the cluster's databases; only once every node has stopped. */
    public void dropDatabases() throws IOException, InterruptedException {
        for (String database : List.of(spec.database(), spec.database() + "_visibility")) {
            sqlTool(database, "drop-database", "--force");
        }
    }

    /** Runs the sql tool; empty when it exited 0, else its output (in {@code sql-tool.log} of the cluster's folder). */
    private String sqlTool(String database, String... command) throws IOException, InterruptedException {
        ClusterSpec.Postgres pg = spec.postgres();
        List<String> arguments = new ArrayList<>(List.of(binaries.resolve("sql").toString(), "--plugin", "postgres12"));
        arguments.addAll(List.of("--ep", pg.host(), "-p", "" + pg.port(), "-u", pg.user(), "--db", database));
        arguments.addAll(List.of(command));
        Path log = spec.folder().resolve("sql-tool.log");
        Files.deleteIfExists(log);
        int exit = Processes.exec(arguments, Map.of("SQL_PASSWORD", pg.password()), log, Duration.ofMinutes(2));
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
