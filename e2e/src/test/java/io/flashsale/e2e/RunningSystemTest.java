package io.flashsale.e2e;

import io.flashsale.launcher.redis.RedisCluster;
import io.flashsale.launcher.redis.RedisSentinels;
import io.flashsale.launcher.redis.RedisServer;
import io.flashsale.testkit.ApiClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
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
 * Cluster of its own, which its api and workers use ({@code REDIS_CLUSTER_NODES}); one marked
 * {@link OnOwnRedis} a plain Redis server of its own ({@code REDIS_URL}); one marked {@link
 * OnRedisSentinel} a master, a replica and sentinels of its own; one marked {@link
 * OnTemporalCluster} runs on a Temporal cluster of its own instead of the dev server.
 */
abstract class RunningSystemTest {

    static RedisCluster cluster;
    static RedisServer redis;
    static RedisSentinels sentinels;
    static FlashSaleSystem system;
    static ApiClient api;

    @RegisterExtension
    static final HistoriesOnFailure histories = new HistoriesOnFailure(() -> system);

    @BeforeAll
    static void startSystem(TestInfo test) throws Exception {
        Class<?> type = test.getTestClass().orElseThrow();
        UnaryOperator<Map<String, String>> stores = UnaryOperator.identity();
        if (type.isAnnotationPresent(OnRedisCluster.class)) {
            cluster = RedisCluster.start(Path.of("target", "e2e-logs", "redis-cluster-" + type.getSimpleName()));
            stores = environment -> FlashSaleSystem.with(environment, Map.of("REDIS_CLUSTER_NODES", cluster.nodes()));
        }
        if (type.isAnnotationPresent(OnOwnRedis.class)) {
            redis = RedisServer.start(Path.of("target", "e2e-logs", "redis-" + type.getSimpleName()), "everysec");
            stores = environment -> FlashSaleSystem.with(environment, Map.of("REDIS_URL", redis.url()));
        }
        if (type.isAnnotationPresent(OnRedisSentinel.class)) {
            sentinels = RedisSentinels.start(
                    Path.of(System.getProperty("flashsale.root", "..")),
                    Path.of("target", "e2e-logs", "redis-sentinels-" + type.getSimpleName()),
                    Duration.ofMillis(OnRedisSentinel.LATENCY_MILLIS));
            stores = environment -> FlashSaleSystem.with(
                    environment,
                    Map.of(
                            "REDIS_SENTINEL_MASTER",
                            RedisSentinels.MASTER_NAME,
                            "REDIS_SENTINEL_NODES",
                            sentinels.sentinelNodes(),
                            "FLASHSALE_REDIS_REPLICATION_REPLICAS",
                            "1",
                            "FLASHSALE_REDIS_REPLICATION_TIMEOUT",
                            "3s"));
        }
        if (type.isAnnotationPresent(SystemEnvironment.class)) {
            UnaryOperator<Map<String, String>> before = stores;
            Map<String, String> settings = new HashMap<>();
            for (String setting : type.getAnnotation(SystemEnvironment.class).value()) {
                settings.put(setting.substring(0, setting.indexOf('=')), setting.substring(setting.indexOf('=') + 1));
            }
            stores = environment -> FlashSaleSystem.with(before.apply(environment), settings);
        }
        if (type.isAnnotationPresent(OnTemporalCluster.class)) {
            system = FlashSaleSystem.startOnCluster(stores);
        } else {
            system = type.isAnnotationPresent(OwnWorkers.class)
                    ? FlashSaleSystem.startWithoutWorkers(stores)
                    : FlashSaleSystem.start(stores);
        }
        api = new ApiClient(system.api());
    }

    /** Stops the class's system (and cluster) and forgets it, so the next class never sees a stopped one. */
    @AfterAll
    static void stopSystem() throws Exception {
        FlashSaleSystem stopping = system;
        RedisCluster stoppingCluster = cluster;
        RedisServer stoppingRedis = redis;
        RedisSentinels stoppingSentinels = sentinels;
        sentinels = null;
        system = null;
        cluster = null;
        redis = null;
        api = null;
        try {
            if (stopping != null) {
                stopping.close();
            }
        } finally {
            if (stoppingCluster != null) {
                stoppingCluster.close();
            }
            if (stoppingRedis != null) {
                stoppingRedis.close();
            }
            if (stoppingSentinels != null) {
                stoppingSentinels.close();
            }
        }
    }
}
