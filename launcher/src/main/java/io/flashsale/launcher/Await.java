package io.flashsale.launcher;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** The one wait of the launcher: polls a check until it holds, while what it waits for still runs. */
public final class Await {

    /** A check that may fail while its subject starts: a failure counts as not yet. */
    public interface Check {
        boolean ok() throws Exception;
    }

    private Await() {}

    /**
     * Polls {@code ready} every 200 ms until it holds; fails naming {@code what} once {@code alive}
     * turns false or after {@code timeout}, with the check's last failure as the cause.
     */
    public static void until(String what, Duration timeout, BooleanSupplier alive, Check ready)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (ready.ok()) {
                    return;
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception notYet) {
                last = notYet;
            }
            if (!alive.getAsBoolean()) {
                throw new IllegalStateException("exited while starting: " + what, last);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not ready within " + timeout.toSeconds() + "s: " + what, last);
            }
            Thread.sleep(200);
        }
    }
}
