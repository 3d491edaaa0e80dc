package io.flashsale.bench;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a benchmark run does. {@code connections}: the closed-loop connections of P1 (which also runs
 * at {@value #P1_LOW_CONNECTIONS}), P2, P3 and P5, and the least P4 opens before it starts; {@code
 * maxRequests} caps each timed load (the smoke test's tiny numbers; a real run is bounded by {@code
 * duration} only); {@code arrivalRate}: P4's requests per second; {@code curve}: the load curve's
 * connection counts.
 */
record Settings(
        int connections,
        Duration warmup,
        Duration duration,
        long maxRequests,
        int settleWorkflows,
        int burstBuyers,
        int burstUnits,
        int arrivalRate,
        List<Integer> curve) {

    /** P1's second, lighter load: the sold-out path below the default 200 connections. */
    static final int P1_LOW_CONNECTIONS = 64;

    Settings {
        curve = List.copyOf(curve);
    }

    /** ~50 requests per phase: for the smoke test, correctness only. */
    static Settings smoke() {
        return new Settings(8, Duration.ZERO, Duration.ofSeconds(30), 50, 30, 50, 10, 500, List.of(16, 64, 200, 800));
    }

    /** P1's connection counts, fewest first: {@value #P1_LOW_CONNECTIONS} and {@code connections}. */
    List<Integer> p1Connections() {
        return Stream.of(P1_LOW_CONNECTIONS, connections).distinct().sorted().toList();
    }

    /** What the run does, in words (the chart's header). */
    String describe() {
        return "%d connections, warm-up %d s, %d s per timed load, "
                        .formatted(connections, warmup.toSeconds(), duration.toSeconds())
                + "%,d buyers for %,d units, P4 at %,d requests/s, curve at %s connections"
                        .formatted(burstBuyers, burstUnits, arrivalRate, SoldOutPhases.join(curve));
    }
}
