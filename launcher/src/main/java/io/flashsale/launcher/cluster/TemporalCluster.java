package io.flashsale.launcher.cluster;

import com.google.protobuf.util.Durations;
import io.flashsale.launcher.temporal.Readiness;
import io.flashsale.launcher.temporal.SearchAttributeRegistration;
import io.flashsale.workflows.PurchaseSearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.RegisterNamespaceRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A production-like Temporal cluster ({@link ClusterSpec}) as commands: {@link #prepare} writes the
 * configuration and brings the PostgreSQL schema up to date, {@link #command} is how to run each
 * node (every launcher starts and stops the processes itself, by their own pids), and {@link
 * #awaitReady} registers the namespace and the purchase search attributes once the frontend answers.
 */
public final class TemporalCluster {

    /** How long a closed purchase's history stays: long enough to look at a sale afterwards. */
    private static final Duration RETENTION = Duration.ofDays(3);

    private final ClusterSpec spec;
    private final ServerBinaries binaries;

    public TemporalCluster(ClusterSpec spec, ServerBinaries binaries) {
        this.spec = spec;
        this.binaries = binaries;
    }

    public ClusterSpec spec() {
        return spec;
    }

    public ServerBinaries binaries() {
        return binaries;
    }

    /** Writes each node's configuration and creates or upgrades the two databases. */
    public void prepare(Consumer<String> log) throws IOException, InterruptedException {
        ClusterConfig.write(spec);
        if (spec.uiPort() > 0) {
            WebUiServer.configure(spec);
        }
        Schema.apply(binaries, spec, log);
    }

    /** Drops the cluster's databases; only once every node has stopped. */
    public void dropDatabases() throws IOException, InterruptedException {
        Schema.drop(binaries, spec);
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

    /** The Web UI server's command ({@link WebUiServer}), for a cluster with a UI port. */
    public List<String> uiCommand(Path uiServer) {
        return WebUiServer.command(uiServer, spec);
    }

    /**
     * Registers the namespace (an existing one is fine) and the purchase search attributes as soon
     * as the frontend takes them, then waits until the namespace lists them; fails when {@code
     * alive} turns false or after {@code timeout}.
     */
    public void awaitReady(Duration timeout, BooleanSupplier alive) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget(spec.address())
                .setRpcTimeout(Duration.ofSeconds(5))
                .validateAndBuildWithDefaults());
        try {
            while (true) {
                try {
                    register(service);
                    SearchAttributeRegistration.register(
                            spec.address(), spec.namespace(), PurchaseSearchAttributes.all());
                    break;
                } catch (StatusRuntimeException e) {
                    if (!alive.getAsBoolean()) {
                        throw new IllegalStateException("a node of " + this + " exited while starting", e);
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(this + " did not take its namespace within " + timeout, e);
                    }
                    Thread.sleep(500);
                }
            }
        } finally {
            service.shutdownNow();
        }
        Readiness.await(
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

    /** For messages. */
    @Override
    public String toString() {
        return "Temporal cluster " + spec.name() + " (" + spec.shards() + " shards, "
                + spec.historyHosts().size() + " history hosts) on " + spec.address();
    }

    /** The folder of the cluster's files: {@code folder/config}, the nodes' logs are the launcher's. */
    public Path folder() {
        return spec.folder();
    }
}
