package io.flashsale.stores.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A gate one kind of activity call waits at while it is closed (open by default): the test closes
 * it, waits until a call {@link #arrived()}, does what must happen while the step runs, and opens it.
 * A call waits at most 20 s, so a test that fails while holding leaves no thread behind.
 */
public final class Hold {

    private static final long LIMIT_SECONDS = 20;

    private final Semaphore arrivals = new Semaphore(0);
    private volatile CountDownLatch gate = new CountDownLatch(0);

    /** From now on calls wait here; calls that passed before no longer count as arrived. */
    public void close() {
        gate = new CountDownLatch(1);
        arrivals.drainPermits();
    }

    public void open() {
        gate.countDown();
    }

    /** Waits until a call reached the gate (it is held there when the gate is closed). */
    public void arrived() {
        if (!acquire()) {
            throw new AssertionError("no call reached the gate within " + LIMIT_SECONDS + " s");
        }
    }

    /** Called by the activity before its real work. */
    public void pass() {
        arrivals.release();
        try {
            if (!gate.await(LIMIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("held longer than " + LIMIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private boolean acquire() {
        try {
            return arrivals.tryAcquire(LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
