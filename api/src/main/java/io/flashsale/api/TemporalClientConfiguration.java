package io.flashsale.api;

import io.temporal.serviceclient.RpcRetryOptions;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.spring.boot.TemporalOptionsCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Bounds how long the api retries an unreachable Temporal (the SDK default is a minute): the buyer
 * gets an answer in seconds; an admitted purchase waits in the sale's stream for the relay.
 */
@Configuration(proxyBeanMethods = false)
class TemporalClientConfiguration {

    @Bean
    TemporalOptionsCustomizer<WorkflowServiceStubsOptions.Builder> boundedTemporalRetries(ApiProperties properties) {
        return options -> options.setRpcRetryOptions(RpcRetryOptions.newBuilder()
                .setExpiration(properties.temporalRetry())
                .build());
    }
}
