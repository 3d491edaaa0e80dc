package io.flashsale.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A phase's load: requests in rotation, sent for a duration (or up to the run's request cap). */
final class TimedLoad {

    private TimedLoad() {}

    /** The requests over and over, in order. */
    static HttpLoad.Source cycle(List<byte[]> requests) {
        AtomicLong next = new AtomicLong();
        return () -> {
            long i = next.getAndIncrement();
            return new HttpLoad.Request((int) (i % Integer.MAX_VALUE), requests.get((int) (i % requests.size())));
        };
    }

    /**
     * Sends each of {@code requests} once, in order, over {@code connections}; the tally's seconds end
     * at the last answer.
     */
    static Tally each(HttpLoad load, List<byte[]> requests, int connections) throws Exception {
        return each(load, requests, connections, new Tally(null));
    }

    /** {@link #each(HttpLoad, List, int)} into {@code tally} (request ids are list positions). */
    static Tally each(HttpLoad load, List<byte[]> requests, int connections, Tally tally) throws Exception {
        java.util.Iterator<byte[]> next = requests.iterator();
        AtomicLong id = new AtomicLong();
        load.run(
                connections,
                () -> next.hasNext() ? new HttpLoad.Request((int) id.getAndIncrement(), next.next()) : null,
                tally,
                Long.MAX_VALUE);
        return tally;
    }

    /** Runs {@code source} for {@code duration} (or {@code maxRequests}) at the configured connections. */
    static Tally run(HttpLoad load, HttpLoad.Source source, Settings settings, Duration duration) throws Exception {
        Tally tally = new Tally(null);
        if (duration.isZero()) {
            return tally;
        }
        AtomicLong issued = new AtomicLong();
        HttpLoad.Source capped = () -> issued.incrementAndGet() > settings.maxRequests() ? null : source.next();
        load.run(settings.connections(), capped, tally, System.nanoTime() + duration.toNanos());
        return tally;
    }
}
