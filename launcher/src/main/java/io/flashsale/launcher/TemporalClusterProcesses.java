package io.flashsale.launcher;

import io.flashsale.launcher.cluster.ClusterSpec;
import io.flashsale.launcher.cluster.ServerBinaries;
import io.flashsale.launcher.cluster.TemporalCluster;
import io.flashsale.launcher.cluster.WebUiServer;
import io.flashsale.testkit.FreePorts;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * A production-like Temporal cluster ({@link TemporalCluster}: temporal-server on PostgreSQL,
 * frontend, matching, worker and two history hosts) run as child processes of {@link Processes},
 * one per node, each of which can be SIGKILLed and started again as a crashed host would be.
 */
public final class TemporalClusterProcesses implements TemporalService {

    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    private static final String UI = "ui";
    /** Enough for a large sale on two history hosts, few enough that each host owns several. */
    public static final int SHARDS = 16;

    private final Processes processes;
    private final TemporalCluster cluster;
    private final Map<String, Integer> starts = new LinkedHashMap<>();

    private TemporalClusterProcesses(Processes processes, TemporalCluster cluster) {
        this.processes = processes;
        this.cluster = cluster;
    }

    /**
     * Builds what is missing, creates the cluster's databases ({@code temporal_<name>...}, fresh
     * for a new name), starts every node on free ports and waits until the namespace takes
     * purchases.
     */
    public static TemporalClusterProcesses start(
            Processes processes, Path root, String name, Path folder, Consumer<String> log) throws Exception {
        ServerBinaries binaries = ServerBinaries.locateOrBuild(root, log);
        IntSupplier ports = FreePorts::next;
        Optional<Path> uiServer = WebUiServer.locateOrBuild(root, log);
        ClusterSpec spec = ClusterSpec.of(
                        name,
                        folder,
                        ports.getAsInt(),
                        SHARDS,
                        2,
                        ClusterSpec.Postgres.fromEnvironment(),
                        "default",
                        ports)
                .withUi(uiServer.isPresent() ? ports.getAsInt() : 0);
        TemporalCluster cluster = new TemporalCluster(spec, binaries);
        cluster.prepare(log);
        TemporalClusterProcesses started = new TemporalClusterProcesses(processes, cluster);
        // the first node to start writes the cluster's metadata; several at once on new databases
        // race for it and the losers exit, so the frontend goes first and the rest once it listens
        ClusterSpec.Node frontend = spec.node(ClusterSpec.FRONTEND);
        started.startNode(frontend);
        started.awaitListening(frontend);
        for (ClusterSpec.Node node : spec.nodes()) {
            if (!node.equals(frontend)) {
                started.startNode(node);
            }
        }
        cluster.awaitReady(READY_TIMEOUT, started::allAlive);
        if (uiServer.isPresent()) {
            started.starts.merge(UI, 1, Integer::sum);
            processes.start(started.processName(UI), cluster.uiCommand(uiServer.get()), Map.of());
        }
        return started;
    }

    public TemporalCluster cluster() {
        return cluster;
    }

    @Override
    public String address() {
        return cluster.spec().address();
    }

    /** The cluster's Web UI server ({@link WebUiServer}), when it could be built. */
    @Override
    public Optional<URI> webUi() {
        ClusterSpec spec = cluster.spec();
        return spec.uiPort() > 0
                ? Optional.of(URI.create("http://" + spec.ip() + ":" + spec.uiPort()))
                : Optional.empty();
    }

    @Override
    public Map<String, ProcessHandle> processes() {
        Map<String, ProcessHandle> live = new LinkedHashMap<>();
        cluster.spec()
                .nodes()
                .forEach(node -> live.put(node.name(), process(node.name()).toHandle()));
        return live;
    }

    /** The live process of {@code node} (its latest start). */
    public Process process(String node) {
        return processes.get(processName(node));
    }

    /** SIGKILL of one node, no shutdown of any kind, after checking the pid still runs that node. */
    public void kill(String node) throws InterruptedException {
        Process process = process(node);
        String commandLine = process.info().commandLine().orElse("");
        if (!process.isAlive() || !commandLine.contains("--env " + node + " ")) {
            throw new IllegalStateException(
                    "pid " + process.pid() + " is not the live node " + node + ": " + commandLine);
        }
        process.destroyForcibly();
        process.waitFor();
    }

    /** Starts {@code node} again, same ports and configuration; waits until the cluster answers. */
    public void restart(String node) throws Exception {
        if (process(node).isAlive()) {
            throw new IllegalStateException(
                    "node " + node + " still runs (pid " + process(node).pid() + ")");
        }
        startNode(cluster.spec().node(node));
        cluster.awaitReady(READY_TIMEOUT, this::allAlive);
    }

    /** The log of the node's latest start. */
    public Path log(String node) {
        return processes.log(processName(node));
    }

    private void startNode(ClusterSpec.Node node) throws IOException {
        starts.merge(node.name(), 1, Integer::sum);
        processes.start(processName(node.name()), cluster.command(node), Map.of());
    }

    private String processName(String node) {
        int count = starts.getOrDefault(node, 1);
        return "temporal-" + node + (count <= 1 ? "" : "-" + count);
    }

    private void awaitListening(ClusterSpec.Node node) throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (true) {
            try (Socket ignored = new Socket(cluster.spec().ip(), node.grpcPort())) {
                return;
            } catch (IOException notYet) {
                if (!process(node.name()).isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            node.name() + " of " + cluster + " is not listening; see " + log(node.name()));
                }
                Thread.sleep(100);
            }
        }
    }

    private boolean allAlive() {
        return cluster.spec().nodes().stream()
                .allMatch(node -> process(node.name()).isAlive());
    }

    @Override
    public String toString() {
        return cluster.toString();
    }
}
