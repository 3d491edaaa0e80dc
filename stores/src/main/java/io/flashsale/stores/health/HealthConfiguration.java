package io.flashsale.stores.health;

import io.temporal.serviceclient.WorkflowServiceStubs;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Health contributions shared by the api and the worker (MySQL and Redis come from Boot); needs the
 * Temporal starter's {@link WorkflowServiceStubs}.
 */
@Configuration(proxyBeanMethods = false)
public class HealthConfiguration {

    @Bean
    TemporalHealthIndicator temporalHealthIndicator(WorkflowServiceStubs temporal) {
        return new TemporalHealthIndicator(temporal);
    }
}
