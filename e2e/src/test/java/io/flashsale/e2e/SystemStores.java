package io.flashsale.e2e;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.testing.StoreProbe;
import java.net.URI;
import java.util.Map;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The system's MySQL and Redis as the test reaches them behind the processes' backs: the servers,
 * schema and key prefix of the processes' environment, read and changed through a {@link
 * StoreProbe}. MySQL is connected to only when the probe asks it something.
 */
final class SystemStores implements AutoCloseable {

    private final LettuceConnectionFactory connections;
    private final StoreProbe probe;

    SystemStores(Map<String, String> environment) {
        this.connections = new LettuceConnectionFactory(redisServer(URI.create(environment.get("REDIS_URL"))));
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
