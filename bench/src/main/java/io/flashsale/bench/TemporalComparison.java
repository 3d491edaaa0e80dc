package io.flashsale.bench;

import io.flashsale.launcher.PrivateStores;
import java.nio.file.Path;

/**
 * P6: the settle rate of P3 (admitted to PENDING_PAYMENT per second) on the production-like
 * Temporal cluster (temporal-server on PostgreSQL, 16 shards over two history hosts, each service
 * a process of its own) against the dev server of the main stack. A second
 * stack starts on the cluster; both get a warm-up sale, then the same sale size, one after the
 * other; the cluster's stack on a schema and Redis prefix of its own. Reports each rate, their ratio, and the CPU each process spent per settled purchase (each
 * Temporal process apart on the cluster). A comparison, not a target.
 */
final class TemporalComparison {

    private static final int WARMUP = 200;

    private TemporalComparison() {}

    static Report.Phase run(Phases onDevServer, Path root, Path logs, Settings settings) throws Exception {
        int n = settings.settleWorkflows();
        String name = "bench_" + Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        // stores of its own: on the run's, this stack's relay would start the dev server's admissions
        PrivateStores own = PrivateStores.fresh();
        try (Stack cluster = Stack.startOnCluster(root, logs.resolve("p6-cluster"), own, name)) {
            Phases onCluster = new Phases(cluster, own, settings, cluster.tokens());
            onDevServer.settleRun("p6dw", Math.min(WARMUP, n));
            onCluster.settleRun("p6cw", Math.min(WARMUP, n));
            Phases.SettleRun dev = onDevServer.settleRun("p6d", n);
            Phases.SettleRun clustered = onCluster.settleRun("p6c", n);
            return new Report.Phase(
                            "P6", "settle rate on the Temporal cluster (PostgreSQL, 2 history hosts) vs the dev server")
                    .value("dev server settle rate (/s)", dev.rate())
                    .value("cluster settle rate (/s)", clustered.rate())
                    .value("purchases", n)
                    .ratio(clustered.rate() / dev.rate())
                    .fact("dev server CPU ms per settled purchase", dev.cpuMillisPerPurchase())
                    .fact("cluster CPU ms per settled purchase", clustered.cpuMillisPerPurchase())
                    .fact("cluster", cluster.temporal().toString());
        } finally {
            own.drop();
        }
    }
}
