package io.flashsale.stores.audit;

import io.flashsale.stores.LuaScripts;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.StoreConfiguration;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import io.temporal.client.WorkflowClient;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The invariant audit for a process that has the stores and a Temporal {@link WorkflowClient} (the
 * api). Reads MySQL, Redis and Temporal; writes only Redis, and only on repair.
 */
@Configuration(proxyBeanMethods = false)
@Import(StoreConfiguration.class)
public class AuditConfiguration {

    @Bean
    SaleAudit saleAudit(
            SaleRepository sales,
            SaleStock stock,
            JdbcClient jdbc,
            PlatformTransactionManager transactions,
            StringRedisTemplate redis,
            RedisKeyProperties keys,
            WorkflowClient temporal,
            RedisScript<List> auditSnapshotScript,
            RedisScript<List> repairScript,
            RedisScript<Long> releaseScript) {
        RedisFacts redisFacts = new RedisFacts(redis, keys, auditSnapshotScript, repairScript, releaseScript);
        return new SaleAudit(
                sales,
                stock,
                new MySqlFacts(jdbc, transactions),
                redisFacts,
                new WorkflowFacts(temporal),
                new TransactionTemplate(transactions));
    }

    @Bean
    RedisScript<List> auditSnapshotScript() {
        return LuaScripts.load("audit_snapshot", List.class);
    }

    @Bean
    RedisScript<List> repairScript() {
        return LuaScripts.load("repair", List.class);
    }
}
