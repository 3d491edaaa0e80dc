package io.flashsale.bench;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A phase's closed-loop loads: requests in rotation for a duration, or each request once. */
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

    /** Each of {@code requests} once, in order (ids are positions), over {@code connections}. */
    static Tally each(HttpLoad load, List<byte[]> requests, int connections) throws Exception {
        return each(load, requests, connections, new Tally(null));
    }

    /** {@link #each(HttpLoad, List, int)} into {@code tally}; its seconds end at the last answer. */
    static Tally each(HttpLoad load, List<byte[]> requests, int connections, Tally tally) throws Exception {
        Iterator<byte[]> next = requests.iterator();
        AtomicLong id = new AtomicLong();
        HttpLoad.Source source =
                () -> next.hasNext() ? new HttpLoad.Request((int) id.getAndIncrement(), next.next()) : null;
        load.run(connections, source, tally, Long.MAX_VALUE);
        return tally;
    }

    /** {@code source} for {@code duration} or {@code maxRequests}, whichever ends first; nothing for zero. */
    static Tally run(HttpLoad load, HttpLoad.Source source, int connections, long maxRequests, Duration duration)
            throws Exception {
        Tally tally = new Tally(null);
        if (!duration.isZero()) {
            AtomicLong issued = new AtomicLong();
            HttpLoad.Source capped = () -> issued.incrementAndGet() > maxRequests ? null : source.next();
            load.run(connections, capped, tally, System.nanoTime() + duration.toNanos());
        }
        return tally;
    }
}
