package io.flashsale.api.purchase;

import io.flashsale.workflows.purchase.PurchaseStarter;
import io.temporal.client.WorkflowClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class PurchaseConfiguration {

    @Bean
    PurchaseStarter purchaseStarter(WorkflowClient workflowClient) {
        return new PurchaseStarter(workflowClient);
    }
}
