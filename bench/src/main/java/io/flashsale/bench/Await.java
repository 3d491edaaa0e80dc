package io.flashsale.bench;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Waiting with a deadline: every wait of the bench and the demo ends, and one that gives up says
 * what it waited for, for how long, and what it last saw.
 */
public final class Await {

    /** A wait that passed its deadline; the message is meant for the person running the command. */
    public static final class TimedOut extends IllegalStateException {
        TimedOut(String message) {
            super(message);
        }
    }

    private Await() {}

    /**
     * Reads every {@code every} until {@code done} holds; past {@code timeout} throws {@link TimedOut}.
     * Awaitility polls (the tests' one way to wait), in the caller's thread and at once; this class
     * only turns its timeout into a sentence for the person running the command.
     */
    public static <T> T until(String what, Duration timeout, Duration every, Callable<T> read, Predicate<T> done)
            throws Exception {
        AtomicReference<T> seen = new AtomicReference<>();
        try {
            return Awaitility.await(what)
                    .atMost(timeout)
                    .pollDelay(Duration.ZERO)
                    .pollInterval(every)
                    .pollInSameThread()
                    .until(
                            () -> {
                                seen.set(read.call());
                                return seen.get();
                            },
                            done);
        } catch (ConditionTimeoutException timedOut) {
            throw gaveUp(timeout, what, seen.get());
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
