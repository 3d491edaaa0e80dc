package io.flashsale.api;

import io.micrometer.observation.ObservationPredicate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * What the api traces: the requests of its API, not Prometheus' scrapes and the probes' health
 * checks (a trace every few seconds that says nothing about a purchase).
 */
@Configuration(proxyBeanMethods = false)
class TracingConfiguration {

    @Bean
    ObservationPredicate noActuatorRequests() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request
                && request.getCarrier().getRequestURI().startsWith("/actuator"));
    }
}
