package io.flashsale.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** A request's observation registers no meter (no lock taken per request); every other observation is timed. */
class ObservationConfigurationTest {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    ObservationAutoConfiguration.class,
                    MetricsAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class))
            .withUserConfiguration(ObservationConfiguration.class);

    @Test
    void timesNoRequestButEveryOtherObservation() {
        context.run(app -> {
            ObservationRegistry observations = app.getBean(ObservationRegistry.class);
            MeterRegistry meters = app.getBean(MeterRegistry.class);
            var request = new MockHttpServletRequest("POST", "/api/sales/s1/purchases");

            Observation.createNotStarted(
                            "http.server.requests",
                            () -> new ServerRequestObservationContext(request, new MockHttpServletResponse()),
                            observations)
                    .observe(() -> {});
            Observation.createNotStarted("flashsale.other", observations).observe(() -> {});

            assertThat(meters.find("http.server.requests").meters()).isEmpty();
            assertThat(meters.find("http.server.requests.active").meters()).isEmpty();
            assertThat(meters.get("flashsale.other").timer().count()).isEqualTo(1);
        });
    }
}
