package io.flashsale.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * vegeta's results ({@code vegeta encode --to json}: one JSON object a request, in the order the
 * answers came) read into the bench's measures. vegeta times each request from its actual send
 * ({@code timestamp}, {@code latency}) and records no intended time, so this one is derived: its
 * pacer means request {@code seq} to leave {@code seq / perSecond} seconds after the first, whose
 * timestamp is the start. The send lag (actual minus intended send, at least 0) then goes into a
 * {@link HttpLoad.Schedule} like {@link HttpLoad#runOpen}'s send delays, and each answer into
 * {@code answers} with its latency counted from the intended time, as HttpLoad counts it; vegeta's
 * own latency (from its send) goes into a second tally. The last results of a run whose targets
 * ran out (error "no targets to attack", nothing sent) are not requests and are left out.
 */
final class VegetaResults {

    static final String NO_TARGETS = "no targets to attack";

    /** The latest latency a {@link Tally} takes: its histograms end at 120 s. */
    private static final long LONGEST_NANOS = 119_000_000_000L;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Answers answers;
    private final Tally fromSend;
    private final HttpLoad.Schedule schedule;
    private final long requests;

    private VegetaResults(Answers answers, Tally fromSend, HttpLoad.Schedule schedule, long requests) {
        this.answers = answers;
        this.fromSend = fromSend;
        this.schedule = schedule;
        this.requests = requests;
    }

    /** One result: what a request got, and when it left (epoch nanoseconds) and for how long. */
    record Hit(long seq, int code, long sentNanos, long latencyNanos, String error, String body) {

        static Hit of(String line) {
            try {
                JsonNode json = JSON.readTree(line);
                JsonNode body = json.path("body");
                return new Hit(
                        json.path("seq").asLong(),
                        json.path("code").asInt(),
                        epochNanos(OffsetDateTime.parse(json.path("timestamp").asText())
                                .toInstant()),
                        json.path("latency").asLong(),
                        json.path("error").asText(""),
                        body.isNull() || body.isMissingNode()
                                ? ""
                                : new String(body.binaryValue(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("not a vegeta JSON result: " + line, e);
            }
        }

        /** A result of the run's end, not of a request. */
        boolean noTarget() {
            return code == 0 && error.contains(NO_TARGETS);
        }

        /** The status for {@link Tally#outcome}: vegeta's code, or -1 when nothing came back (code 0). */
        int status() {
            return code == 0 ? -1 : code;
        }
    }

    /**
     * Reads the result lines of a run meant at {@code perSecond} requests a second; {@code tally}
     * takes the outcomes, latency from the intended send time.
     */
    static VegetaResults of(Stream<String> lines, double perSecond, Tally tally) {
        List<Hit> hits = new ArrayList<>();
        lines.filter(line -> !line.isBlank())
                .map(Hit::of)
                .filter(hit -> !hit.noTarget())
                .forEach(hits::add);
        Answers answers = new Answers(tally);
        Tally fromSend = new Tally(null);
        Histogram lag = new Histogram(3_600_000_000L, 3);
        long start = hits.stream().mapToLong(Hit::sentNanos).min().orElse(0);
        long end = start;
        double interval = 1e9 / perSecond;
        for (Hit hit : hits) {
            long late = Math.max(0, hit.sentNanos() - (start + (long) (hit.seq() * interval)));
            lag.recordValue(late / 1000);
            answers.answered(
                    (int) hit.seq(), hit.status(), hit.body(), Math.min(LONGEST_NANOS, late + hit.latencyNanos()));
            fromSend.answered((int) hit.seq(), hit.status(), hit.body(), Math.min(LONGEST_NANOS, hit.latencyNanos()));
            end = Math.max(end, hit.sentNanos() + hit.latencyNanos());
        }
        // connections: not known, vegeta's HTTP client opens them as it needs
        return new VegetaResults(answers, fromSend, new HttpLoad.Schedule(lag, 0, (end - start) / 1e9), hits.size());
    }

    private static long epochNanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    /** Outcomes and statuses, latency from the intended send time. */
    Answers answers() {
        return answers;
    }

    /** Outcomes with vegeta's own latency, from the actual send. */
    Tally fromSend() {
        return fromSend;
    }

    /** Send lag behind the schedule, and the seconds from the first send to the last answer. */
    HttpLoad.Schedule schedule() {
        return schedule;
    }

    /** Requests sent (results of the run's end left out). */
    long requests() {
        return requests;
    }
}
