package io.flashsale.stores.testing;

import io.flashsale.launcher.redis.RedisCluster;
import io.flashsale.launcher.redis.RedisNode;
import io.flashsale.stores.RedisKeyProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A Redis Cluster of 3 masters with a replica each (module {@code launcher}) for the tests of one
 * JVM: started on first use under {@code target/redis-cluster/}, stopped when the JVM exits (each
 * node by its pid). A test class runs on it by registering, next to {@link TestStores}:
 *
 * <pre>{@code
 * @DynamicPropertySource
 * static void onCluster(DynamicPropertyRegistry registry) {
 *     TestRedisCluster.register(registry);
 * }
 * }</pre>
 *
 * <p>Boot connects to the cluster nodes whenever they are set, whatever {@code spring.data.redis.url}
 * says, so a subclass of a test on the single Redis re-runs it on the cluster.
 */
public final class TestRedisCluster {

    private static RedisCluster cluster;

    private TestRedisCluster() {}

    public static synchronized RedisCluster shared() {
        if (cluster == null) {
            try {
                cluster = RedisCluster.start(Path.of(
                        "target",
                        "redis-cluster",
                        Long.toString(ProcessHandle.current().pid())));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return cluster;
    }

    /** The cluster's nodes and the topology refresh the apps use (application.yaml). */
    public static void register(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.cluster.nodes", () -> shared().nodes());
        registry.add("spring.data.redis.lettuce.cluster.refresh.adaptive", () -> "true");
        registry.add("spring.data.redis.lettuce.cluster.refresh.period", () -> "5s");
    }

    /** The master that serves the keys of the sale now. */
    public static RedisNode masterOf(RedisKeyProperties keys, String saleId) {
        return shared().masterOf(keys.sale(saleId).stock());
    }

    /** New sale ids, one whose keys live on each master, in the order of {@link RedisCluster#masters()}. */
    public static List<String> oneSalePerMaster(RedisKeyProperties keys) {
        List<String> ids = new ArrayList<>();
        for (RedisNode master : shared().masters()) {
            String id = TestSales.newId();
            while (!masterOf(keys, id).equals(master)) {
                id = TestSales.newId();
            }
            ids.add(id);
        }
        return ids;
    }
}
