package io.flashsale.stores.sale;

import io.flashsale.stores.LuaScripts;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.admission.RelaySales;
import io.flashsale.stores.replication.ReplicaAcks;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The sale changes ({@link SaleChanges}) and their audit trail ({@link SaleChangeLog}), with one bean per script. */
@Configuration(proxyBeanMethods = false)
public class SaleChangesConfiguration {

    @Bean
    SaleChangeLog saleChangeLog(JdbcClient jdbc) {
        return new SaleChangeLog(jdbc);
    }

    @Bean
    SaleChanges saleChanges(
            SaleRepository sales,
            SaleChangeLog log,
            JdbcClient jdbc,
            StringRedisTemplate redis,
            RedisKeyProperties keys,
            RelaySales relaySales,
            ReplicaAcks acks,
            PlatformTransactionManager transactions,
            RedisScript<Long> closeScript,
            RedisScript<Long> moveScript,
            RedisScript<Long> restockScript,
            RedisScript<List> withdrawScript) {
        var scripts = new RedisSaleChanges.Scripts(closeScript, moveScript, restockScript, withdrawScript);
        return new SaleChanges(
                sales,
                new SaleUpdates(jdbc),
                log,
                new RedisSaleChanges(redis, keys, scripts),
                relaySales,
                acks,
                new TransactionTemplate(transactions));
    }

    @Bean
    RedisScript<Long> closeScript() {
        return LuaScripts.load("close", Long.class);
    }

    @Bean
    RedisScript<Long> moveScript() {
        return LuaScripts.load("move", Long.class);
    }

    @Bean
    RedisScript<Long> restockScript() {
        return LuaScripts.load("restock", Long.class);
    }

    @Bean
    RedisScript<List> withdrawScript() {
        return LuaScripts.load("withdraw", List.class);
    }
}
