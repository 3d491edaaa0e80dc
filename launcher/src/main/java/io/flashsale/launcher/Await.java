package io.flashsale.launcher;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/** The one wait of the tooling: polls until a condition holds, and one that gives up says what it waited for. */
public final class Await {

    /** A wait that passed its deadline; the message is meant for the person running the command. */
    public static final class TimedOut extends IllegalStateException {
        TimedOut(String message) {
            super(message);
        }
    }

    /** A check that may fail while its subject starts: a failure counts as not yet. */
    public interface Check {
        boolean ok() throws Exception;
    }

    private static final Duration STARTING_EVERY = Duration.ofMillis(200);

    private Await() {}

    /**
     * Reads at once, then every {@code every}, until {@code done} holds, and returns what it read; a
     * failing read fails the wait; past {@code timeout} throws {@link TimedOut} with what it last read.
     */
    public static <T> T until(String what, Duration timeout, Duration every, Callable<T> read, Predicate<T> done)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T seen = read.call();
            if (done.test(seen)) {
                return seen;
            }
            if (System.nanoTime() > deadline) {
                throw gaveUp(timeout, what, seen);
            }
            Thread.sleep(every.toMillis());
        }
    }

    /**
     * Polls {@code ready} every 200 ms until it holds, counting its failures as not yet; fails naming
     * {@code what} once {@code alive} turns false or after {@code timeout}, with the check's last
     * failure as the cause.
     */
    public static void until(String what, Duration timeout, BooleanSupplier alive, Check ready)
            throws InterruptedException {
        AtomicReference<Exception> last = new AtomicReference<>();
        Callable<Boolean> starting = () -> {
            try {
                if (ready.ok()) {
                    return true;
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception notYet) {
                last.set(notYet);
            }
            if (!alive.getAsBoolean()) {
                throw new IllegalStateException("exited while starting: " + what, last.get());
            }
            return false;
        };
        try {
            until(what, timeout, STARTING_EVERY, starting, Boolean::booleanValue);
        } catch (TimedOut timedOut) {
            throw new IllegalStateException("not ready within " + timeout.toSeconds() + "s: " + what, last.get());
        } catch (InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** "gave up after 12 s waiting for {what}; last saw: {lastSeen}". */
    public static TimedOut gaveUp(Duration timeout, String what, Object lastSeen) {
        return new TimedOut("gave up after %s waiting for %s; last saw: %s".formatted(text(timeout), what, lastSeen));
    }

    /** "12 s" for whole seconds and from 10 s on (rounded), else "1500 ms". */
    public static String text(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 || millis >= 10_000 ? Math.round(millis / 1000.0) + " s" : millis + " ms";
    }
}
