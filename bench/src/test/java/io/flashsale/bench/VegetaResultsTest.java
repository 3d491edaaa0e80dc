package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class VegetaResultsTest {

    /** HdrHistogram keeps three significant digits. */
    private static final Offset<Double> HISTOGRAM = Offset.offset(0.05);

    private static final String SOLD_OUT = "{\"type\":\"https://flashsale.dev/problems/sold-out\",\"status\":409}";

    /**
     * Lines as {@code vegeta encode --to json} writes them (in the order answers came, not by seq), at
     * 100 requests a second: one every 10 ms after the first send at 12:00:00.100.
     */
    private static Stream<String> lines() {
        return Stream.of(
                result(1, 202, "12:00:00.110000000Z", 4_000_000, "", "{\"purchaseId\":\"p\"}"),
                result(0, 409, "12:00:00.100000000Z", 2_000_000, "409 Conflict", SOLD_OUT),
                // 15 ms behind its time (12:00:00.120), in another zone's notation
                result(2, 409, "13:00:00.135000000+01:00", 3_000_000, "409 Conflict", SOLD_OUT),
                result(3, 0, "12:00:00.130000000Z", 30_000_000_000L, "Post \\\"http://x\\\": timeout", null),
                // the targets ran out: nothing sent
                result(4, 0, "12:00:00.140000000Z", 50_000, VegetaResults.NO_TARGETS, null),
                "");
    }

    private static String result(long seq, int code, String time, long latency, String error, String body) {
        String encoded = body == null
                ? "null"
                : "\"" + Base64.getEncoder().encodeToString(body.getBytes(StandardCharsets.UTF_8)) + "\"";
        return ("{\"attack\":\"\",\"seq\":%d,\"code\":%d,\"timestamp\":\"2026-12-02T%s\",\"latency\":%d,"
                        + "\"bytes_out\":0,\"bytes_in\":12,\"error\":\"%s\",\"body\":%s,\"method\":\"POST\","
                        + "\"url\":\"http://127.0.0.1:1/api/sales/s/purchases\",\"headers\":{\"Content-Type\":[\"x\"]}}")
                .formatted(seq, code, time, latency, error, encoded);
    }

    @Test
    void countsEachRequestByStatusAndOutcomeAndLeavesOutTheEndOfTargets() {
        VegetaResults results = VegetaResults.of(lines(), 100, new Tally(null));

        assertThat(results.requests()).isEqualTo(4);
        assertThat(results.answers().statuses()).isEqualTo(Map.of(0, 1L, 202, 1L, 409, 2L));
        assertThat(results.answers().tally().counts())
                .isEqualTo(Map.of("admitted", 1L, "sold-out", 2L, "connection-error", 1L));
        assertThat(results.fromSend().counts())
                .isEqualTo(results.answers().tally().counts());
    }

    @Test
    void countsLatencyFromTheIntendedSendTimeAndKeepsVegetasOwnBesideIt() {
        VegetaResults results = VegetaResults.of(lines(), 100, new Tally(null));

        assertThat(results.answers().tally().millis(100, "sold-out"))
                .as("seq 2: sent 15 ms late, answered 3 ms later")
                .isCloseTo(18.0, HISTOGRAM);
        assertThat(results.fromSend().millis(100, "sold-out"))
                .as("vegeta's own latency starts at its send")
                .isCloseTo(3.0, HISTOGRAM);
        assertThat(results.answers().tally().millis(100, "admitted")).isCloseTo(4.0, HISTOGRAM);
    }

    @Test
    void measuresTheSendLagBehindTheRateAndTheRunFromFirstSendToLastAnswer() {
        HttpLoad.Schedule schedule =
                VegetaResults.of(lines(), 100, new Tally(null)).schedule();

        assertThat(schedule.late()).as("only seq 2 left more than 10 ms late").isEqualTo(1);
        assertThat(schedule.delayMillis(100)).isCloseTo(15.0, HISTOGRAM);
        assertThat(schedule.seconds())
                .as("seq 3, sent on time at +30 ms, timed out after 30 s")
                .isEqualTo(30.03, Offset.offset(1e-9));
    }

    @Test
    void noResultsIsAnEmptyRun() {
        VegetaResults results = VegetaResults.of(Stream.of(), 100, new Tally(null));

        assertThat(results.requests()).isZero();
        assertThat(results.answers().statuses()).isEmpty();
        assertThat(results.schedule().seconds()).isZero();
    }
}
