package io.flashsale.launcher;

import io.flashsale.launcher.cluster.ClusterSpec;
import io.flashsale.launcher.cluster.TemporalCluster;
import io.flashsale.testkit.FreePorts;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A production-like Temporal cluster ({@link TemporalCluster}: temporal-server on PostgreSQL,
 * frontend, matching, worker and two history hosts) run as child processes of {@link Processes},
 * one per node, each of which can be SIGKILLed and started again as a crashed host would be.
 */
public final class TemporalClusterProcesses implements TemporalService {

    private final Processes processes;
    private final TemporalCluster cluster;

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
        ClusterSpec spec = ClusterSpec.of(
                name, folder, FreePorts.next(), ClusterSpec.Postgres.fromEnvironment(), "default", FreePorts::next);
        return new TemporalClusterProcesses(
                processes, TemporalCluster.start(root, spec, FreePorts::next, processes, log));
    }

    public TemporalCluster cluster() {
        return cluster;
    }

    @Override
    public String address() {
        return cluster.spec().address();
    }

    /** The cluster's Web UI server, when it could be built. */
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
        return processes.get("temporal-" + node);
    }

    /** SIGKILL of one node, no shutdown of any kind, after checking the pid still runs that node. */
    public void kill(String node) throws InterruptedException {
        Processes.kill(process(node), TemporalCluster.marker(node), "node " + node);
    }

    /** Starts {@code node} again, same ports and configuration; waits until the cluster answers. */
    public void restart(String node) throws Exception {
        ClusterSpec.Node restarted = cluster.spec().node(node);
        processes.start(TemporalCluster.processName(restarted), cluster.command(restarted));
        cluster.awaitReady(() ->
                cluster.spec().nodes().stream().allMatch(one -> processes.alive(TemporalCluster.processName(one))));
    }

    /** The log of the node's latest start. */
    public Path log(String node) {
        return processes.log("temporal-" + node);
    }

    @Override
    public String toString() {
        return cluster.toString();
    }
}
