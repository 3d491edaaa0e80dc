package io.flashsale.e2e;

import io.flashsale.bench.Api;
import io.flashsale.devredis.RedisCluster;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Base of tests against the system as {@link FlashSaleSystem#start()} runs it: each test class
 * starts a system of its own before its first test and stops it after its last. A class marked
 * {@link OwnWorkers} gets one without a worker; one marked {@link OnRedisCluster} gets a Redis
 * Cluster of its own, which its api and workers use ({@code REDIS_CLUSTER_NODES}).
 */
abstract class RunningSystemTest {

    static RedisCluster cluster;
    static FlashSaleSystem system;
    static Api api;

    @RegisterExtension
    static final HistoriesOnFailure histories = new HistoriesOnFailure(() -> system);

    @BeforeAll
    static void startSystem(TestInfo test) throws Exception {
        Class<?> type = test.getTestClass().orElseThrow();
        UnaryOperator<Map<String, String>> redis = UnaryOperator.identity();
        if (type.isAnnotationPresent(OnRedisCluster.class)) {
            cluster = RedisCluster.start(Path.of("target", "e2e-logs", "redis-cluster-" + type.getSimpleName()));
            redis = environment -> FlashSaleSystem.with(environment, Map.of("REDIS_CLUSTER_NODES", cluster.nodes()));
        }
        system = type.isAnnotationPresent(OwnWorkers.class)
                ? FlashSaleSystem.startWithoutWorkers(redis)
                : FlashSaleSystem.start(redis);
        api = new Api(system.api());
    }

    /** Stops the class's system (and cluster) and forgets it, so the next class never sees a stopped one. */
    @AfterAll
    static void stopSystem() throws Exception {
        FlashSaleSystem stopping = system;
        RedisCluster stoppingCluster = cluster;
        system = null;
        cluster = null;
        api = null;
        try {
            if (stopping != null) {
                stopping.close();
            }
        } finally {
            if (stoppingCluster != null) {
                stoppingCluster.close();
            }
        }
    }
}
