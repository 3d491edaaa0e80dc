package io.flashsale.e2e;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.testing.StoreProbe;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The system's MySQL and Redis as the test reaches them behind the processes' backs: the servers,
 * schema and key prefix of the processes' environment (a Redis Cluster when it names {@code
 * REDIS_CLUSTER_NODES}), read and changed through a {@link StoreProbe}. MySQL is connected to only when the probe asks it something.
 */
final class SystemStores implements AutoCloseable {

    private final LettuceConnectionFactory connections;
    private final StoreProbe probe;

    SystemStores(Map<String, String> environment) {
        String clusterNodes = environment.get("REDIS_CLUSTER_NODES");
        this.connections = clusterNodes == null
                ? new LettuceConnectionFactory(redisServer(URI.create(environment.get("REDIS_URL"))))
                : new LettuceConnectionFactory(
                        new RedisClusterConfiguration(List.of(clusterNodes.split(","))), followingFailovers());
        connections.afterPropertiesSet();
        connections.start();
        JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(
                environment.get("MYSQL_URL"), environment.get("MYSQL_USER"), environment.get("MYSQL_PASSWORD")));
        this.probe = new StoreProbe(
                jdbc,
                new StringRedisTemplate(connections),
                new RedisKeyProperties(environment.get("FLASHSALE_REDIS_PREFIX")));
    }

    StoreProbe probe() {
        return probe;
    }

    /** As the processes: 5 s command timeout, topology read again on redirects, reconnects and every 2 s (5 s there). */
    private static LettuceClientConfiguration followingFailovers() {
        ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
                .enableAllAdaptiveRefreshTriggers()
                .enablePeriodicRefresh(Duration.ofSeconds(2))
                .build();
        return LettuceClientConfiguration.builder()
                .commandTimeout(Duration.ofSeconds(5))
                .clientOptions(ClusterClientOptions.builder()
                        .topologyRefreshOptions(refresh)
                        .build())
                .build();
    }

    private static RedisStandaloneConfiguration redisServer(URI url) {
        RedisStandaloneConfiguration server =
                new RedisStandaloneConfiguration(url.getHost(), url.getPort() < 0 ? 6379 : url.getPort());
        String path = url.getPath() == null ? "" : url.getPath().replace("/", "");
        if (!path.isEmpty()) {
            server.setDatabase(Integer.parseInt(path));
        }
        return server;
    }

    @Override
    public void close() {
        connections.destroy();
    }
}
