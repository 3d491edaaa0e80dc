package io.flashsale.worker.purchase;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition that a background process (worker, relay) makes true. */
final class Awaits {

    private Awaits() {}

    static void until(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
