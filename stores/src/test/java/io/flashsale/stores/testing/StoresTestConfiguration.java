package io.flashsale.stores.testing;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.StoreConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.JdbcClientAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration;
import org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The smallest context that runs the stores: their configuration plus Boot's DataSource,
 * JdbcClient, Flyway, transaction and Redis auto-configuration, and a {@link StoreProbe}. Pair it
 * with {@link TestStores}.
 */
@Configuration(proxyBeanMethods = false)
@Import(StoreConfiguration.class)
@ImportAutoConfiguration({
    DataSourceAutoConfiguration.class,
    DataSourceTransactionManagerAutoConfiguration.class,
    TransactionAutoConfiguration.class,
    JdbcTemplateAutoConfiguration.class,
    JdbcClientAutoConfiguration.class,
    FlywayAutoConfiguration.class,
    RedisAutoConfiguration.class
})
public class StoresTestConfiguration {

    @Bean
    StoreProbe storeProbe(JdbcClient jdbc, StringRedisTemplate redis, RedisKeyProperties keys) {
        return new StoreProbe(jdbc, redis, keys);
    }
}
