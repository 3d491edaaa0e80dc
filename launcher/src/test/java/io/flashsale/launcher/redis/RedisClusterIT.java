package io.flashsale.launcher.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisClusterIT {

    private static final Path DIR = Path.of("target", "redis-cluster-it");

    @Test
    void runsThreeMastersWithAReplicaEachAndStopsEveryProcessItStarted() throws Exception {
        List<RedisNode> started;
        try (RedisCluster cluster = RedisCluster.start(DIR)) {
            started = cluster.all();
            assertThat(cluster.masters()).hasSize(3).doesNotHaveDuplicates();
            assertThat(cluster.masters())
                    .allSatisfy(master -> assertThat(cluster.replicaOf(master)).isNotIn(cluster.masters()));
            assertThat(started).hasSize(6).allMatch(RedisNode::isAlive);
        }

        assertThat(started).noneMatch(RedisNode::isAlive);
        assertThat(started).noneMatch(node -> listening(node.port()));
    }

    @Test
    void promotesTheReplicaWithoutTheWritesItNeverReceivedWhenItsMasterIsKilled() throws Exception {
        try (RedisCluster cluster = RedisCluster.start(DIR)) {
            RedisClusterClient client = RedisClusterClient.create(
                    RedisURI.create("redis://" + cluster.all().get(0).address()));
            try (StatefulRedisClusterConnection<String, String> redis = client.connect()) {
                String key = "{sale:s1}:stock";
                redis.sync().set(key, "10");
                RedisNode master = cluster.masterOf(key);

                RedisNode replica = cluster.cutReplication(master);
                redis.sync().decr(key);
                master.kill();
                replica.signal("CONT");
                cluster.awaitPromoted(replica, key, Duration.ofSeconds(30));

                assertThat(master.isAlive()).isFalse();
                assertThat(cluster.masterOf(key)).isSameAs(replica);
                assertThat(get(replica, key)).isEqualTo("10");
            } finally {
                client.shutdown();
            }
        }
    }

    private static String get(RedisNode node, String key) {
        RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", node.port()));
        try (var connection = client.connect()) {
            return connection.sync().get(key);
        } finally {
            client.shutdown();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
