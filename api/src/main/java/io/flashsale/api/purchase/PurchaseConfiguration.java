package io.flashsale.api.purchase;

import io.flashsale.api.ApiProperties;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.temporal.client.WorkflowClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.servlet.config.annotation.AsyncSupportConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

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

    /**
     * Pay and cancel answer asynchronously, at the latest after {@code answer-within}; Spring MVC's
     * async request timeout (Tomcat's 30 s unless set) must not fire first, or a longer answer-within
     * would end every pay and cancel in a bare 503. Runs after Boot's own configurer, so it wins.
     */
    @Bean
    WebMvcConfigurer commandAnswerTimeout(ApiProperties properties) {
        long timeout = properties.commands().answerWithin().plusSeconds(30).toMillis();
        return new WebMvcConfigurer() {
            @Override
            public void configureAsyncSupport(AsyncSupportConfigurer configurer) {
                configurer.setDefaultTimeout(timeout);
            }
        };
    }

    @Bean
    PurchaseStarter purchaseStarter(WorkflowClient workflowClient) {
        return new PurchaseStarter(workflowClient);
    }
}
