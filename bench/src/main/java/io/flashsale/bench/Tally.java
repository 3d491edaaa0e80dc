package io.flashsale.bench;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/** Answers by outcome (admitted, sold-out, ...) with a latency histogram (µs) each, and the users admitted when. */
public final class Tally implements HttpLoad.Sink {

    /** The outcomes of a buyer who did not win. */
    public static final String[] LOSERS = {"sold-out", "already-purchased", "same-key"};

    /** A problem's type: the api's after {@code /problems/}, the DB-only baseline's as it is. */
    private final Map<String, Histogram> latency = new TreeMap<>();

    private final Map<String, Long> admittedAtMillis = new HashMap<>();
    private final Set<String> admittedTwice = new HashSet<>();
    private final IntFunction<String> userOf;
    private final AtomicLong answered = new AtomicLong();
    private final long startNanos = System.nanoTime();
    private volatile long lastNanos = startNanos;
    /** For a tally of several runs ({@link #of}): the seconds they took together; else NaN. */
    private double runSeconds = Double.NaN;

    /** @param userOf the user behind a request id, or null when users need not be counted */
    public Tally(IntFunction<String> userOf) {
        this.userOf = userOf;
    }

    @Override
    public void answered(int id, int status, String body, long nanos) {
        String outcome = outcome(status, body);
        latency.computeIfAbsent(outcome, o -> histogram()).recordValue(Math.max(1, nanos / 1000));
        if (userOf != null && outcome.equals("admitted")) {
            String user = userOf.apply(id);
            if (admittedAtMillis.putIfAbsent(user, System.currentTimeMillis()) != null) {
                admittedTwice.add(user);
            }
        }
        answered.incrementAndGet();
        lastNanos = System.nanoTime();
    }

    /** The outcome of an answer: by status, else the problem type in its body. */
    public static String outcome(int status, String body) {
        return switch (status) {
            case 202 -> "admitted";
            case 200 -> body.contains("UP") ? "up" : "same-key";
            case 201 -> "created";
            case -1 -> "connection-error";
            default -> problemType(status, body);
        };
    }

    /** The problem's type, its {@code /problems/} prefix cut; {@code http-STATUS} for a body without one. */
    private static String problemType(int status, String body) {
        int type = body.indexOf("\"type\":\"");
        int end = type < 0 ? -1 : body.indexOf('"', type + 8);
        if (end < 0) {
            return "http-" + status;
        }
        String value = body.substring(type + 8, end);
        int prefix = value.lastIndexOf("/problems/");
        return prefix < 0 ? value : value.substring(prefix + "/problems/".length());
    }

    public long answered() {
        return answered.get();
    }

    public long count(String outcome) {
        Histogram h = latency.get(outcome);
        return h == null ? 0 : h.getTotalCount();
    }

    public Map<String, Long> counts() {
        Map<String, Long> counts = new TreeMap<>();
        latency.forEach((outcome, h) -> counts.put(outcome, h.getTotalCount()));
        return counts;
    }

    public Set<String> admittedUsers() {
        return admittedAtMillis.keySet();
    }

    /** When each admitted user's first 202 was read (epoch milliseconds), by user. */
    public Map<String, Long> admittedAtMillis() {
        return Map.copyOf(admittedAtMillis);
    }

    /** Users with more than one 202 (must be 0). */
    public long usersAdmittedTwice() {
        return admittedTwice.size();
    }

    public double throughput() {
        return answered.get() / seconds();
    }

    public double seconds() {
        return Double.isNaN(runSeconds) ? (lastNanos - startNanos) / 1e9 : runSeconds;
    }

    /** Runs one after the other as one tally: answers and seconds added up, not the time between them. */
    public static Tally of(List<Tally> runs) {
        Tally sum = new Tally(null);
        sum.runSeconds = 0;
        for (Tally run : runs) {
            run.latency.forEach((outcome, h) ->
                    sum.latency.computeIfAbsent(outcome, o -> histogram()).add(h));
            sum.answered.addAndGet(run.answered());
            sum.runSeconds += run.seconds();
        }
        return sum;
    }

    /** Latency percentile in milliseconds over the answers of {@code outcomes} (all when none; NaN when no answer). */
    public double millis(double percentile, String... outcomes) {
        Histogram h = histogram();
        latency.forEach((outcome, part) -> {
            if (outcomes.length == 0 || List.of(outcomes).contains(outcome)) {
                h.add(part);
            }
        });
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    private static Histogram histogram() {
        return new Histogram(120_000_000L, 3);
    }
}
