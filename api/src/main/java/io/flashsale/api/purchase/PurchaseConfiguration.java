package io.flashsale.api.purchase;

import io.flashsale.api.ApiProperties;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.temporal.client.WorkflowClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

@Configuration(proxyBeanMethods = false)
class PurchaseConfiguration {

    /**
     * Pay and cancel's own threads for their Temporal calls ({@link PurchaseCommands}), apart from the
     * HTTP threads admission answers on.
     */
    @Bean
    ThreadPoolTaskExecutor purchaseCommandExecutor(ApiProperties properties) {
        ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
        executor.setCorePoolSize(properties.commands().threads());
        executor.setMaxPoolSize(properties.commands().threads());
        executor.setQueueCapacity(properties.commands().queueCapacity());
        executor.setThreadNamePrefix("purchase-command-");
        return executor;
    }

    @Bean
    PurchaseStarter purchaseStarter(WorkflowClient workflowClient) {
        return new PurchaseStarter(workflowClient);
    }
}
