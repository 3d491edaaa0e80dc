package io.flashsale.stores.replication;

import io.flashsale.stores.RedisKeyProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@link ReplicaAcks} for the process's Redis: none with {@code replicas: 0}; otherwise a waiter on a
 * connection of its own to the master Boot's factory connects to (a single server or the master
 * Sentinel names, followed across a failover). A Redis Cluster has a master per slot range, which
 * one waiter cannot cover: there the setting is refused at start.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReplicationProperties.class)
public class ReplicationConfiguration {

    @Bean(destroyMethod = "close")
    ReplicaAcks replicaAcks(ReplicationProperties replication, RedisConnectionFactory redis, RedisKeyProperties keys) {
        if (replication.replicas() == 0) {
            return ReplicaAcks.none();
        }
        if (!(redis instanceof LettuceConnectionFactory shared) || shared.getClusterConfiguration() != null) {
            throw new IllegalStateException(
                    "flashsale.redis.replication.replicas (FLASHSALE_REDIS_REPLICATION_REPLICAS) needs a"
                            + " single Redis master, standalone or behind Sentinel; a Redis Cluster keeps 0");
        }
        LettuceConnectionFactory own = shared.getSentinelConfiguration() != null
                ? new LettuceConnectionFactory(shared.getSentinelConfiguration(), shared.getClientConfiguration())
                : new LettuceConnectionFactory(shared.getStandaloneConfiguration(), shared.getClientConfiguration());
        own.setShareNativeConnection(false);
        own.afterPropertiesSet();
        own.start();
        return new ReplicaAcks(
                replication.replicas(), replication.timeout(), keys.replicaAck(), own::getConnection, own::destroy);
    }
}
