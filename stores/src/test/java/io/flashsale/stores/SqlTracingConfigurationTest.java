package io.flashsale.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationPredicate;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class SqlTracingConfigurationTest {

    private final Tracer tracer = mock(Tracer.class);

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(SqlTracingConfiguration.class)
            .withBean(Tracer.class, () -> tracer);

    @Test
    void observesAStatementInARecordedTrace() {
        inSpan(true);

        context.run(app -> assertThat(started(registry(app), "jdbc.query")).isTrue());
    }

    @Test
    void skipsAStatementInATraceThatIsNotRecorded() {
        inSpan(false);

        context.run(app -> assertThat(started(registry(app), "jdbc.query")).isFalse());
    }

    @Test
    void skipsAStatementOutsideAnyTrace() {
        when(tracer.currentSpan()).thenReturn(null);

        context.run(app -> assertThat(started(registry(app), "jdbc.query")).isFalse());
    }

    @Test
    void leavesEveryOtherObservationAlone() {
        inSpan(false);

        context.run(app ->
                assertThat(started(registry(app), "http.server.requests")).isTrue());
    }

    private void inSpan(boolean sampled) {
        Span span = mock(Span.class);
        TraceContext trace = mock(TraceContext.class);
        when(trace.sampled()).thenReturn(sampled);
        when(span.context()).thenReturn(trace);
        when(tracer.currentSpan()).thenReturn(span);
    }

    /** A registry as Boot's observation auto-configuration makes it: with the app's predicates. */
    private static ObservationRegistry registry(AssertableApplicationContext app) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(context -> true);
        app.getBeansOfType(ObservationPredicate.class)
                .values()
                .forEach(registry.observationConfig()::observationPredicate);
        return registry;
    }

    private static boolean started(ObservationRegistry registry, String name) {
        Observation observation = Observation.start(name, registry);
        observation.stop();
        return !observation.isNoop();
    }
}
