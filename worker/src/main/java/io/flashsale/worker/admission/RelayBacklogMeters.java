package io.flashsale.worker.admission;

import io.flashsale.stores.admission.StreamBacklog;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per sale, what waits for the relay: {@code flashsale.relay.backlog{sale}} (admissions whose
 * workflow start nobody confirmed yet) and {@code flashsale.relay.oldest.age{sale}} (seconds the
 * oldest of them has waited). Updated on every pass that visits the sale.
 */
class RelayBacklogMeters {

    private final MeterRegistry meters;
    private final Map<String, Reading> sales = new ConcurrentHashMap<>();

    RelayBacklogMeters(MeterRegistry meters) {
        this.meters = meters;
    }

    void record(String saleId, StreamBacklog backlog) {
        Reading reading = sales.computeIfAbsent(saleId, this::register);
        reading.entries = backlog.entries();
        reading.oldestAgeSeconds = backlog.oldestAge(Instant.now()).toMillis() / 1000.0;
    }

    /** The sale is no longer visited: its gauges go. */
    void forget(String saleId) {
        if (sales.remove(saleId) != null) {
            meters.find("flashsale.relay.backlog").tag("sale", saleId).meters().forEach(meters::remove);
            meters.find("flashsale.relay.oldest.age")
                    .tag("sale", saleId)
                    .meters()
                    .forEach(meters::remove);
        }
    }

    private Reading register(String saleId) {
        Reading reading = new Reading();
        Gauge.builder("flashsale.relay.backlog", reading, r -> r.entries)
                .description("admissions of the sale whose workflow start nobody confirmed yet")
                .tag("sale", saleId)
                .strongReference(true)
                .register(meters);
        Gauge.builder("flashsale.relay.oldest.age", reading, r -> r.oldestAgeSeconds)
                .description("seconds the sale's oldest unstarted admission has waited")
                .baseUnit("seconds")
                .tag("sale", saleId)
                .strongReference(true)
                .register(meters);
        return reading;
    }

    private static final class Reading {
        private volatile double entries;
        private volatile double oldestAgeSeconds;
    }
}
