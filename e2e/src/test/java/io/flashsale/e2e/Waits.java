package io.flashsale.e2e;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * How the e2e tests wait for a condition: an Awaitility wait that looks at once, then every {@code
 * interval}, in the caller's thread. Where that differs from Awaitility's defaults, and why:
 *
 * <ul>
 *   <li>no first delay: by default Awaitility sleeps one interval before its first look, which
 *       would delay every wait on a condition already met ({@link Purchases#awaitStatus} runs
 *       before each payment);
 *   <li>the caller's thread: a slow look (describing 300 workflows) runs to its end, and no
 *       JVM-wide handler of uncaught exceptions is swapped in on every wait, as Awaitility does to
 *       catch them in its own thread. {@link Purchases#awaitStatus} runs in many threads at once,
 *       and a stray failure of some other thread (a pump, a client) must not fail a wait.
 * </ul>
 */
final class Waits {

    private Waits() {}

    /** A wait that looks now, then every {@code interval}; {@code what} names it in a timeout's message. */
    static ConditionFactory polling(Duration interval, String what) {
        return tuned(Awaitility.await(what), interval);
    }

    /** {@link #polling(Duration, String)} without a name. */
    static ConditionFactory polling(Duration interval) {
        return tuned(Awaitility.await(), interval);
    }

    private static ConditionFactory tuned(ConditionFactory wait, Duration interval) {
        return wait.pollDelay(Duration.ZERO).pollInterval(interval).pollInSameThread();
    }
}
