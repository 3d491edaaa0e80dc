package io.flashsale.stores;

import io.micrometer.observation.ObservationPredicate;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.function.SingletonSupplier;

/**
 * A SQL statement is observed (its span, with the statement) only inside a trace that is recorded.
 * The apps sample a small share of purchases; observing every statement of the rest, spans that are
 * never exported, took about a tenth of the worker's CPU per purchase. A sampled trace keeps its
 * SQL spans; a statement outside any trace (migrations, the archiver's sweeps) has none.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "io.micrometer.tracing.Tracer")
class SqlTracingConfiguration {

    /** datasource-micrometer's observations: jdbc.query, jdbc.connection, jdbc.result-set. */
    static final String SQL_OBSERVATIONS = "jdbc.";

    /** The tracer is looked up once, at the first statement, not on every one. */
    @Bean
    ObservationPredicate sqlInRecordedTracesOnly(ObjectProvider<Tracer> tracer) {
        Supplier<Tracer> once = SingletonSupplier.of(tracer::getIfAvailable);
        return (name, context) -> !name.startsWith(SQL_OBSERVATIONS) || recorded(once.get());
    }

    private static boolean recorded(Tracer tracer) {
        Span span = tracer == null ? null : tracer.currentSpan();
        return span != null && Boolean.TRUE.equals(span.context().sampled());
    }
}
