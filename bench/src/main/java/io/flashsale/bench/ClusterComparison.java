package io.flashsale.bench;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.redis.RedisCluster;
import io.flashsale.launcher.temporal.DevServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * P5: the sold-out purchase path of P1 on a Redis Cluster (3 masters with a replica each, local
 * processes of module {@code launcher}) against a single Redis. Two fresh stacks (dev Temporal,
 * worker, api; the run's MySQL schema) start side by side, one on the run's Redis, one on the
 * cluster, so neither api is warmer than the other from the phases before; both get the same load
 * after a warm-up each, in {@value #ROUNDS} alternating rounds of a third of the duration, so a
 * machine busy with other work slows both alike. A comparison, not a target.
 */
final class ClusterComparison {

    private static final int ROUNDS = 3;

    private ClusterComparison() {}

    static Report.Phase run(Path root, Path logs, PrivateStores stores, Settings settings, DevServer.Kind temporal)
            throws Exception {
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        try (RedisCluster cluster = RedisCluster.start(logs.resolve("redis-cluster"));
                Stack single = Stack.start(
                        root,
                        logs.resolve("p5-single-redis"),
                        stores,
                        temporal,
                        FlashSaleStack.BACK_END_NICE,
                        Map.of());
                Stack clustered = Stack.start(
                        root,
                        logs.resolve("p5-redis-cluster"),
                        stores.onCluster(cluster.nodes()),
                        temporal,
                        FlashSaleStack.BACK_END_NICE,
                        Map.of())) {
            SoldOutLoad onSingle = SoldOutLoad.on(single, settings, "p5s" + run);
            SoldOutLoad onCluster = SoldOutLoad.on(clustered, settings, "p5c" + run);
            onSingle.run(settings.warmup());
            onCluster.run(settings.warmup());
            List<Tally> singleRounds = new ArrayList<>();
            List<Tally> clusterRounds = new ArrayList<>();
            Duration round = settings.duration().dividedBy(ROUNDS);
            for (int i = 0; i < ROUNDS; i++) {
                singleRounds.add(onSingle.run(round));
                clusterRounds.add(onCluster.run(round));
            }
            Tally one = Tally.of(singleRounds);
            Tally many = Tally.of(clusterRounds);
            return new Report.Phase(
                            "P5",
                            "sold-out purchase on a Redis Cluster (3 masters) vs a single Redis, "
                                    + settings.connections() + " connections")
                    .measure("single Redis", one)
                    .measure("Redis Cluster", many)
                    .ratio(many.throughput() / one.throughput())
                    .fact("single Redis outcomes", one.counts())
                    .fact("Redis Cluster outcomes", many.counts())
                    .fact("cluster nodes", cluster.nodes());
        }
    }
}
