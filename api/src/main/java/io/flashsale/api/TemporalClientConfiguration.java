package io.flashsale.api;

import io.temporal.api.enums.v1.QueryRejectCondition;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.RpcRetryOptions;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.spring.boot.TemporalOptionsCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Bounds how long the api retries an unreachable Temporal (the SDK default is a minute): the buyer
 * gets an answer in seconds; an admitted purchase waits in the sale's stream for the relay. Queries
 * of closed workflows are refused by the server at once instead of replayed on a worker: an ended
 * purchase is read from its result (PurchaseLookup), which needs no worker of the build it ran on.
 */
@Configuration(proxyBeanMethods = false)
class TemporalClientConfiguration {

    @Bean
    TemporalOptionsCustomizer<WorkflowClientOptions.Builder> noQueriesOfClosedWorkflows() {
        return options -> options.setQueryRejectCondition(QueryRejectCondition.QUERY_REJECT_CONDITION_NOT_OPEN);
    }

    @Bean
    TemporalOptionsCustomizer<WorkflowServiceStubsOptions.Builder> boundedTemporalRetries(ApiProperties properties) {
        return options -> options.setRpcRetryOptions(RpcRetryOptions.newBuilder()
                .setExpiration(properties.temporalRetry())
                .build());
    }
}
