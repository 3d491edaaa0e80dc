package io.flashsale.bench;

import java.time.Duration;
import java.util.List;

/**
 * What a benchmark run does. {@code maxRequests} caps the timed phases (the smoke test uses tiny
 * numbers; the real run is bounded by {@code duration} only). {@code connections}: the closed-loop
 * connections of P1 (which also runs at {@value #P1_LOW_CONNECTIONS}), P2, P3 and P5, and the open
 * connections P4 starts with; {@code arrivalRate}: P4's requests per second; {@code curve}: the
 * connection counts of the load curve.
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

    /** P1's second, lighter load: the sold-out path below the generator's default 200 connections. */
    static final int P1_LOW_CONNECTIONS = 64;

    static final List<Integer> CURVE = List.of(16, 64, 200, 800);

    Settings {
        curve = List.copyOf(curve);
    }

    /** ~50 requests per phase: for the smoke test, correctness only. */
    static Settings smoke() {
        return new Settings(8, Duration.ZERO, Duration.ofSeconds(30), 50, 30, 50, 10, 500, CURVE);
    }

    /** P1's connection counts, fewest first: {@value #P1_LOW_CONNECTIONS} and {@code connections}. */
    List<Integer> p1Connections() {
        return java.util.stream.Stream.of(P1_LOW_CONNECTIONS, connections)
                .distinct()
                .sorted()
                .toList();
    }

    /** What the run does, in words (the chart's header). */
    String describe() {
        return "%d connections, warm-up %d s, %d s per timed load, "
                        .formatted(connections, warmup.toSeconds(), duration.toSeconds())
                + "%,d buyers for %,d units, P4 at %,d requests/s, curve at %s connections"
                        .formatted(burstBuyers, burstUnits, arrivalRate, SoldOutPhases.join(curve));
    }

    /**
     * Connections an open-loop load at {@code perSecond} opens before its first send: one second of
     * arrivals, at least the run's connections.
     */
    int warmConnections(int perSecond) {
        return Math.max(connections, perSecond);
    }

    /** This run with {@code connections} instead. */
    Settings withConnections(int connections) {
        return new Settings(
                connections,
                warmup,
                duration,
                maxRequests,
                settleWorkflows,
                burstBuyers,
                burstUnits,
                arrivalRate,
                curve);
    }
}
