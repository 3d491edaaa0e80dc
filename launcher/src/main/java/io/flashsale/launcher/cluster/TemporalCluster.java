package io.flashsale.launcher.cluster;

import com.google.protobuf.util.Durations;
import io.flashsale.launcher.Await;
import io.flashsale.launcher.Http;
import io.flashsale.launcher.Launch;
import io.flashsale.launcher.temporal.DevServer;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.RegisterNamespaceRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * A production-like Temporal cluster ({@link ClusterSpec}): {@link #start} writes the configuration
 * ({@link ClusterConfig}), brings the PostgreSQL schema up to date ({@link ServerBinaries}) and
 * starts every node, and the Web UI server when it can be built, through a {@link Launch} (which
 * owns the processes, by their own pids), then registers the namespace and the purchase search
 * attributes once the frontend answers.
 */
public record TemporalCluster(ClusterSpec spec, ServerBinaries binaries) {

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
        Optional<Path> ui = ServerBinaries.webUi(root, log);
        TemporalCluster cluster = new TemporalCluster(
                ui.isPresent() ? spec.withUi(uiPort.getAsInt()) : spec, ServerBinaries.locateOrBuild(root, log));
        ClusterConfig.write(cluster.spec);
        cluster.binaries.applySchema(cluster.spec, log);
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

    /** {@code temporal-NODE}: the name of the node's process. */
    public static String processName(ClusterSpec.Node node) {
        return "temporal-" + node.name();
    }

    /** What the command line of the node {@code nodeName} holds, and no other node's. */
    public static String marker(String nodeName) {
        return "--env " + nodeName + " --allow-no-auth";
    }

    /** Drops the cluster's databases; only once every node has stopped. */
    public void dropDatabases() throws IOException, InterruptedException {
        binaries.dropDatabases(spec);
    }

    /** {@code temporal-server ... start --service S} of {@code node}, reading its own {@code config/NODE.yaml}. */
    public List<String> command(ClusterSpec.Node node) {
        return List.of(
                binaries.server().toString(),
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

    @Override
    public String toString() {
        return "Temporal cluster " + spec.name() + " (" + spec.shards() + " shards, "
                + spec.historyHosts().size() + " history hosts) on " + spec.address();
    }
}
