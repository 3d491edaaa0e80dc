package io.flashsale.launcher.local;

import io.flashsale.launcher.Http;
import io.flashsale.launcher.TemporalService;
import io.flashsale.launcher.cluster.ClusterSpec;
import io.flashsale.launcher.temporal.DevServer;
import java.time.Duration;
import java.util.List;

/**
 * The Temporal of {@code up}: one already listening on TEMPORAL_ADDRESS, else the dev server
 * (state in {@code .run/temporal.db}, Web UI on TEMPORAL_UI_PORT), or with {@code --temporal
 * cluster} the production-like cluster (temporal-server on PostgreSQL, databases temporal_NAME*).
 */
final class LocalTemporal {

    private final LocalConfig config;
    private final RunFolder run;
    private boolean start;
    private boolean cluster;

    LocalTemporal(LocalConfig config) {
        this.config = config;
        this.run = config.run();
    }

    /** Before anything starts: use a running Temporal, or decide to start one (its ports free?). */
    void check() throws InterruptedException {
        if (run.pid(Component.TEMPORAL).isPresent()) {
            return;
        }
        if (Http.listening(config.temporalHost(), config.temporalPort())) {
            try {
                DevServer.awaitReady(config.temporalAddress(), config.namespace(), Duration.ofSeconds(10), () -> true);
                return;
            } catch (IllegalStateException notTemporal) {
                throw new Refused("port " + config.temporalPort() + " (TEMPORAL_ADDRESS=" + config.temporalAddress()
                        + ") is taken by something that is not a Temporal server");
            }
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
                config.namespace(),
                metrics ? config.temporalMetricsPort() : 0);
        try {
            TemporalService.devServer(run, config.root(), options, DevServer.Kind.CLI, config.backEnd());
        } catch (IllegalStateException notReady) {
            throw new Refused("temporal did not become ready (" + notReady.getMessage() + "); see "
                    + run.shown(run.log(Component.TEMPORAL)));
        }
    }

    /** The cluster, its processes detached in the run folder. */
    void startCluster() throws Exception {
        cluster = true;
        if (run.pid(Component.TEMPORAL_FRONTEND).isPresent()) {
            System.out.println("temporal: cluster already running");
            return;
        }
        if (!start) {
            throw new Refused("TEMPORAL_ADDRESS=" + config.temporalAddress()
                    + " is taken; --temporal cluster starts a cluster of its own");
        }
        System.out.println(
                "temporal: preparing the cluster (builds temporal-server when missing; minutes the first time) ...");
        TemporalService.cluster(run, config.root(), spec(), config::temporalUiPort);
    }

    /** Where Prometheus scrapes Temporal: the dev server's /metrics, or every cluster node's. */
    List<String> metricsTargets() {
        if (!cluster) {
            return List.of("127.0.0.1:" + config.temporalMetricsPort());
        }
        ClusterSpec spec = spec();
        return spec.nodes().stream()
                .map(node -> spec.ip() + ":" + node.metricsPort())
                .toList();
    }

    String webUi() {
        return start || cluster || run.pid(Component.TEMPORAL).isPresent()
                ? "http://127.0.0.1:" + config.temporalUiPort() + "/namespaces/" + config.namespace() + "/workflows"
                : "the one of the Temporal service on " + config.temporalAddress();
    }

    /** The cluster of this checkout: in {@code .run/temporal-cluster}, its ports from 10000 above the frontend's. */
    private ClusterSpec spec() {
        int[] next = {config.temporalPort() + 10000};
        return ClusterSpec.of(
                config.clusterName(),
                run.path().resolve("temporal-cluster"),
                config.temporalPort(),
                ClusterSpec.Postgres.fromEnvironment(),
                config.namespace(),
                () -> next[0]++);
    }
}
