package io.flashsale.bench;

import java.time.Duration;

/**
 * What a benchmark run does. {@code maxRequests} caps the timed phases (the smoke test uses tiny
 * numbers; the real run is bounded by {@code duration} only).
 */
record Settings(
        int connections,
        Duration warmup,
        Duration duration,
        long maxRequests,
        int settleWorkflows,
        int burstBuyers,
        int burstUnits) {

    static Settings defaults() {
        return new Settings(200, Duration.ofSeconds(10), Duration.ofSeconds(15), Long.MAX_VALUE, 1000, 10_000, 500);
    }

    /** ~50 requests per phase: for the smoke test, correctness only. */
    static Settings smoke() {
        return new Settings(8, Duration.ZERO, Duration.ofSeconds(30), 50, 30, 50, 10);
    }
}
