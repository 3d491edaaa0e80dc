package io.flashsale.stores;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * {@code REDIS_CLUSTER_NODES=host:port,...} switches a process to a Redis Cluster: the value becomes
 * Boot's {@code spring.data.redis.cluster.nodes}, which wins over {@code spring.data.redis.url}
 * ({@code REDIS_URL}, the single server otherwise used). Unset or blank: the single server. It
 * cannot be a placeholder in application.yaml: an empty value there would make Boot connect to a
 * cluster of no nodes. A {@code spring.data.redis.cluster.nodes} set elsewhere is left alone.
 */
public class RedisClusterNodes implements EnvironmentPostProcessor {

    static final String VARIABLE = "REDIS_CLUSTER_NODES";
    static final String PROPERTY = "spring.data.redis.cluster.nodes";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String nodes = environment.getProperty(VARIABLE, "").trim();
        if (nodes.isEmpty() || environment.containsProperty(PROPERTY)) {
            return;
        }
        environment.getPropertySources().addLast(new MapPropertySource(VARIABLE, Map.of(PROPERTY, nodes)));
    }
}
