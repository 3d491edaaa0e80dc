package io.flashsale.worker.logging;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Log context for the worker's activities (see {@link ActivityMdcInterceptor}). */
@Configuration(proxyBeanMethods = false)
class LoggingConfiguration {

    @Bean
    ActivityMdcInterceptor activityMdcInterceptor() {
        return new ActivityMdcInterceptor();
    }
}
