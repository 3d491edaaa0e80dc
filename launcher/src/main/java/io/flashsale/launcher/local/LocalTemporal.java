package io.flashsale.launcher.local;

import io.flashsale.launcher.cluster.ClusterSpec;
import io.flashsale.launcher.cluster.ServerBinaries;
import io.flashsale.launcher.cluster.TemporalCluster;
import io.flashsale.launcher.cluster.WebUiServer;
import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.launcher.temporal.Readiness;
import io.flashsale.launcher.temporal.TemporalCli;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The Temporal of {@code up}: one already listening on TEMPORAL_ADDRESS, else the dev server
 * (state in {@code .run/temporal.db}, Web UI on TEMPORAL_UI_PORT), or with {@code --temporal
 * cluster} the production-like cluster (temporal-server on PostgreSQL, databases temporal_NAME*).
 */
final class LocalTemporal {

    /** What runs, for the Web UI line: an existing service, the dev server of either kind, the cluster. */
    enum Kind {
        EXISTING,
        CLI,
        TEST_SERVER,
        CLUSTER
    }

    private final LocalConfig config;
    private final RunFolder run;
    private boolean start;
    private Kind kind = Kind.EXISTING;

    LocalTemporal(LocalConfig config) {
        this.config = config;
        this.run = config.run();
    }

    Kind kind() {
        return kind;
    }

    /** Before anything starts: use a running Temporal, or decide to start one (its ports free?). */
    void check() throws InterruptedException {
        if (run.pid(Component.TEMPORAL).isPresent()) {
            kind = Kind.CLI;
            return;
        }
        if (Ports.listening(config.temporalHost(), config.temporalPort())) {
            if (ready(Duration.ofSeconds(10), () -> true)) {
                return;
            }
            throw new Refused("port " + config.temporalPort() + " (TEMPORAL_ADDRESS=" + config.temporalAddress()
                    + ") is taken by something that is not a Temporal server");
        }
        if (config.temporalConfigured() && !Ports.isLocal(config.temporalHost())) {
            throw new Refused("nothing listens on TEMPORAL_ADDRESS=" + config.temporalAddress()
                    + " (not local, so no dev server is started)");
        }
        Ports.refuseTaken(config.temporalUiPort(), "the Temporal Web UI", "TEMPORAL_UI_PORT");
        start = true;
    }

    boolean starts() {
        return start;
    }

    void startDevServer(boolean metrics) throws Exception {
        if (!start) {
            System.out.println(run.pid(Component.TEMPORAL)
                    .map(pid -> "temporal: dev server already running (pid " + pid + ")")
                    .orElse("temporal: using the Temporal service already listening on " + config.temporalAddress()));
            return;
        }
        DevServer.Options options = new DevServer.Options(
                config.temporalHost(),
                config.temporalPort(),
                config.temporalUiPort(),
                run.path().resolve("temporal.db"),
                config.namespace());
        Optional<Path> cli = new TemporalCli(config.root(), System.err::println).locateOrBuild();
        DevServer.Command command = DevServer.command(options, cli, DevServer.javaPrefix(), System.err::println);
        kind = command.kind() == DevServer.Kind.CLI ? Kind.CLI : Kind.TEST_SERVER;
        List<String> arguments = new ArrayList<>(config.backEnd());
        arguments.addAll(command.arguments());
        if (metrics && kind == Kind.CLI) {
            arguments.addAll(List.of("--metrics-port", Integer.toString(config.temporalMetricsPort())));
        }
        run.start(Component.TEMPORAL, arguments, config.environment());
        if (!ready(Duration.ofSeconds(120), () -> run.pid(Component.TEMPORAL).isPresent())) {
            throw new Refused("temporal did not become ready; see " + run.shown(run.log(Component.TEMPORAL)));
        }
    }

    /**
     * The cluster: the frontend first (nodes starting together on new databases race for the
     * cluster's metadata), the rest once it listens, then the namespace and search attributes.
     */
    void startCluster() throws Exception {
        if (run.pid(Component.TEMPORAL_FRONTEND).isPresent()) {
            System.out.println("temporal: cluster already running");
            kind = Kind.CLUSTER;
            return;
        }
        if (!start) {
            throw new Refused("TEMPORAL_ADDRESS=" + config.temporalAddress()
                    + " is taken; --temporal cluster starts a cluster of its own");
        }
        System.out.println(
                "temporal: preparing the cluster (builds temporal-server when missing; minutes the first time) ...");
        TemporalCluster cluster =
                new TemporalCluster(spec(), ServerBinaries.locateOrBuild(config.root(), System.err::println));
        cluster.prepare(System.err::println);
        for (ClusterSpec.Node node : cluster.spec().nodes()) {
            run.start(Component.clusterNode(node.name()), cluster.command(node), config.environment());
            if (node.name().equals(ClusterSpec.FRONTEND)
                    && !run.await(
                            Component.TEMPORAL_FRONTEND,
                            Duration.ofSeconds(60),
                            () -> Ports.listening(config.temporalHost(), config.temporalPort()))) {
                throw new Refused("the cluster's frontend did not start");
            }
        }
        WebUiServer.locateOrBuild(config.root(), System.err::println)
                .ifPresent(ui -> start(Component.TEMPORAL_UI, cluster.uiCommand(ui)));
        cluster.awaitReady(Duration.ofSeconds(180), () -> run.pid(Component.TEMPORAL_FRONTEND)
                .isPresent());
        kind = Kind.CLUSTER;
    }

    /** Where Prometheus scrapes Temporal: the dev server's /metrics, or every cluster node's. */
    List<String> metricsTargets() {
        if (kind != Kind.CLUSTER) {
            return List.of("127.0.0.1:" + config.temporalMetricsPort());
        }
        ClusterSpec spec = spec();
        return spec.nodes().stream()
                .map(node -> spec.ip() + ":" + node.metricsPort())
                .toList();
    }

    String webUi() {
        return switch (kind) {
            case TEST_SERVER -> "none: Temporal's Java test server has no Web UI (no Temporal CLI and no Go to build it)";
            case EXISTING -> start ? url() : "the one of the Temporal service on " + config.temporalAddress();
            default -> url();
        };
    }

    private String url() {
        return "http://127.0.0.1:" + config.temporalUiPort() + "/namespaces/" + config.namespace() + "/workflows";
    }

    /**
     * The cluster of this checkout: configuration in {@code .run/temporal-cluster}, the ports other
     * than the frontend's from 10000 above it, the same on every call.
     */
    private ClusterSpec spec() {
        int[] next = {config.temporalPort() + 10000};
        return ClusterSpec.of(
                        config.clusterName(),
                        run.path().resolve("temporal-cluster"),
                        config.temporalPort(),
                        16,
                        2,
                        ClusterSpec.Postgres.fromEnvironment(),
                        config.namespace(),
                        () -> next[0]++)
                .withUi(config.temporalUiPort());
    }

    private void start(Component component, List<String> command) {
        try {
            run.start(component, command, config.environment());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean ready(Duration timeout, BooleanSupplier alive) throws InterruptedException {
        try {
            Readiness.await(config.temporalAddress(), config.namespace(), timeout, alive);
            return true;
        } catch (IllegalStateException notReady) {
            return false;
        }
    }
}
