package io.flashsale.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * A run's answers by HTTP status (0: no answer, the connection failed or timed out) beside the
 * {@link Tally} of their outcomes, for a comparison of generators that must agree on both: the
 * outcome says why (sold-out, already-purchased), the status what a generic tool would count.
 */
final class Answers implements HttpLoad.Sink {

    private final Tally tally;
    private final Map<Integer, Long> statuses = new TreeMap<>();

    Answers(Tally tally) {
        this.tally = tally;
    }

    @Override
    public void answered(int id, int status, String body, long nanos) {
        statuses.merge(Math.max(0, status), 1L, Long::sum);
        tally.answered(id, status, body, nanos);
    }

    Tally tally() {
        return tally;
    }

    /** Answers by status, lowest first. */
    Map<Integer, Long> statuses() {
        return java.util.Collections.unmodifiableMap(new TreeMap<>(statuses));
    }
}
