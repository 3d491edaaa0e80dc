package io.flashsale.launcher;

import io.flashsale.launcher.cluster.ClusterSpec;
import io.flashsale.launcher.cluster.TemporalCluster;
import io.flashsale.launcher.temporal.DevServer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * A Temporal started through a {@link Launch}: the dev server (process {@code temporal}) or the
 * cluster (a process {@code temporal-NODE} per node), each killed and restarted by name.
 */
public record TemporalService(
        String address,
        Optional<URI> webUi,
        Optional<TemporalCluster> cluster,
        List<String> names,
        Launch launched,
        Restart restarter) {

    interface Restart {
        void start(String process) throws Exception;
    }

    /** Starts the dev server after {@code launcher} (e.g. {@code nice -n 10}) and waits until its namespace takes purchases. */
    public static TemporalService devServer(Launch launch, Path root, DevServer.Options options, List<String> launcher)
            throws Exception {
        // a launcher such as nice -n 10 execs the server: the pid stays the server's
        List<String> command = new ArrayList<>(launcher);
        command.addAll(DevServer.cliCommand(DevServer.cli(root, System.err::println), options));
        Restart restart = name -> {
            launch.start(name, command);
            DevServer.awaitReady(
                    options.address(), options.namespace(), Duration.ofSeconds(120), () -> launch.alive(name));
        };
        Optional<URI> ui = ui(options.ip(), options.uiPort());
        var temporal = new TemporalService(
                options.address(), ui, Optional.empty(), List.of(DevServer.PROCESS), launch, restart);
        temporal.restart(DevServer.PROCESS);
        return temporal;
    }

    /** Starts the cluster of {@code spec} (its Web UI on {@code uiPort}) and waits until it takes purchases. */
    public static TemporalService cluster(Launch launch, Path root, ClusterSpec spec, IntSupplier uiPort)
            throws Exception {
        TemporalCluster cluster = TemporalCluster.start(root, spec, uiPort, launch, System.err::println);
        // the cluster's own spec: with the Web UI's port when its server could be built
        ClusterSpec started = cluster.spec();
        List<String> names =
                started.nodes().stream().map(TemporalCluster::processName).toList();
        return new TemporalService(
                started.address(), ui(started.ip(), started.uiPort()), Optional.of(cluster), names, launch, process -> {
                    launch.start(process, cluster.command(started.node(process.substring("temporal-".length()))));
                    cluster.awaitReady(() -> names.stream().allMatch(launch::alive));
                });
    }

    private static Optional<URI> ui(String ip, int port) {
        return port > 0 ? Optional.of(URI.create("http://" + ip + ":" + port)) : Optional.empty();
    }

    /** Its live server processes by name ({@code temporal}, or {@code temporal-frontend}, ...), e.g. to read their CPU time. */
    public Map<String, ProcessHandle> processes() {
        Map<String, ProcessHandle> live = new LinkedHashMap<>();
        names.forEach(name -> live.put(name, process(name).toHandle()));
        return live;
    }

    /** The latest process named {@code name}, alive or not (a stack's child). */
    public Process process(String name) {
        return launched.get(name);
    }

    /** SIGKILL (no shutdown of any kind) of the live server or node {@code name}. */
    public void kill(String name) {
        Processes.kill(process(known(name)), name);
    }

    /** Starts {@code name} again, same ports and files, and waits until Temporal takes purchases. */
    public void restart(String name) throws Exception {
        restarter.start(known(name));
    }

    private String known(String name) {
        if (!names.contains(name)) {
            throw new IllegalArgumentException("no Temporal process " + name + " in " + names);
        }
        return name;
    }

    @Override
    public String toString() {
        return cluster.map(Object::toString)
                .orElseGet(() -> "Temporal dev server on " + address
                        + webUi.map(ui -> ", Web UI " + ui).orElse(""));
    }
}
