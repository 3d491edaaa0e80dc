package io.flashsale.workflows.purchase;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a fake activity until the test lets it go, so that the test can act while the step runs
 * (an Update while {@code markPaid} records a payment, say). While a step is held no time is
 * skipped: Temporal's test clock runs in real time, far from the steps' ten-second timeout.
 */
final class HeldStep {

    private static final long WAIT_SECONDS = 10;

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean holding;

    void hold() {
        holding = true;
    }

    /** Called by the fake activity: blocks while the step is held. */
    void pass() {
        if (holding) {
            entered.countDown();
            await(released, "released");
        }
    }

    /** Waits until the held step runs. */
    void awaitEntered() {
        await(entered, "entered");
    }

    void release() {
        released.countDown();
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("held step not " + what + " within " + WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
