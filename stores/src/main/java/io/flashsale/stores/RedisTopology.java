package io.flashsale.stores;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Which Redis a process uses, from the environment: {@code REDIS_SENTINEL_MASTER} with {@code
 * REDIS_SENTINEL_NODES=host:port,...} a master and its replicas behind Redis Sentinel (Boot's {@code
 * spring.data.redis.sentinel.*}, followed across a failover), or {@code REDIS_CLUSTER_NODES=host:port,...}
 * a Redis Cluster ({@code spring.data.redis.cluster.nodes}); either wins over {@code
 * spring.data.redis.url} ({@code REDIS_URL}, the single server otherwise used). Unset or blank: the
 * single server. They cannot be placeholders in application.yaml: an empty value there would make
 * Boot connect to a cluster (or Sentinel) of no nodes. A property set elsewhere is left alone.
 */
public class RedisTopology implements EnvironmentPostProcessor {

    static final String CLUSTER_NODES = "spring.data.redis.cluster.nodes";
    static final String SENTINEL_MASTER = "spring.data.redis.sentinel.master";
    static final String SENTINEL_NODES = "spring.data.redis.sentinel.nodes";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> properties = new LinkedHashMap<>();
        copy(environment, "REDIS_CLUSTER_NODES", CLUSTER_NODES, properties);
        String master = environment.getProperty("REDIS_SENTINEL_MASTER", "").trim();
        if (!master.isEmpty()
                && !environment.getProperty("REDIS_CLUSTER_NODES", "").isBlank()) {
            throw new IllegalStateException("set REDIS_SENTINEL_MASTER or REDIS_CLUSTER_NODES, not both");
        }
        if (!master.isEmpty()
                && environment.getProperty("REDIS_SENTINEL_NODES", "").isBlank()) {
            throw new IllegalStateException("REDIS_SENTINEL_MASTER needs REDIS_SENTINEL_NODES=host:port,...");
        }
        if (!master.isEmpty() && !environment.containsProperty(SENTINEL_MASTER)) {
            properties.put(SENTINEL_MASTER, master);
            copy(environment, "REDIS_SENTINEL_NODES", SENTINEL_NODES, properties);
        }
        if (!properties.isEmpty()) {
            environment.getPropertySources().addLast(new MapPropertySource("redis-topology", properties));
        }
    }

    private static void copy(
            ConfigurableEnvironment environment, String variable, String property, Map<String, Object> into) {
        String value = environment.getProperty(variable, "").trim();
        if (!value.isEmpty() && !environment.containsProperty(property)) {
            into.put(property, value);
        }
    }
}
