package io.flashsale.api;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * What the api observes: the requests of its API are traced, not Prometheus' scrapes and the probes'
 * health checks (a trace every few seconds that says nothing about a purchase); they are not timed,
 * as the admission's own timers measure the hot path by outcome.
 */
@Configuration(proxyBeanMethods = false)
class ObservationConfiguration {

    @Bean
    ObservationPredicate noActuatorRequests() {
        return (name, context) -> !(context instanceof ServerRequestObservationContext request
                && request.getCarrier().getRequestURI().startsWith("/actuator"));
    }

    /**
     * Boot's meters of every observation but a request's (in place of its own handler). Off by a
     * meter filter instead, each request would register two meters the filter denies, and Micrometer
     * takes its registry's lock for each such registration: in the first burst of a sale the
     * request threads queued on that lock for up to a second.
     */
    @Bean
    MeterObservationHandler<Observation.Context> meterObservationHandler(MeterRegistry meters) {
        return new DefaultMeterObservationHandler(meters) {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return !(context instanceof ServerRequestObservationContext);
            }
        };
    }
}
