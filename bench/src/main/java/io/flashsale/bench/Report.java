package io.flashsale.bench;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A run's phases where it ran: its one table (markdown), results.json and chart.png. */
record Report(Environment environment, List<Phase> phases) {

    /** Throughput and latency of one load; {@code connections} of a closed loop, or null. */
    record Measure(
            long requests,
            double seconds,
            double throughput,
            double p50Ms,
            double p99Ms,
            double maxMs,
            Integer connections) {

        static Measure of(Tally tally, Integer connections) {
            return new Measure(
                    tally.answered(),
                    round(tally.seconds()),
                    round(tally.throughput()),
                    round(tally.millis(50)),
                    round(tally.millis(99)),
                    round(tally.millis(100)),
                    connections);
        }
    }

    /** The latency of a group of answers; {@code p99TargetMs} when it has a target, or null. */
    record Latency(long answers, double p50Ms, double p90Ms, double p99Ms, double maxMs, Double p99TargetMs) {

        static Latency of(Tally tally, Double p99TargetMs, String... outcomes) {
            return new Latency(
                    Arrays.stream(outcomes).mapToLong(tally::count).sum(),
                    round(tally.millis(50, outcomes)),
                    round(tally.millis(90, outcomes)),
                    round(tally.millis(99, outcomes)),
                    round(tally.millis(100, outcomes)),
                    p99TargetMs);
        }
    }

    /** One phase: loads measured, latencies of groups of answers, values, a ratio and target, facts. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY)
    static final class Phase {
        @JsonProperty("phase")
        final String id;

        final String title;
        final Map<String, Measure> measures = new LinkedHashMap<>();
        final Map<String, Latency> latencies = new LinkedHashMap<>();
        final Map<String, Number> values = new LinkedHashMap<>();
        final Map<String, Object> facts = new LinkedHashMap<>();
        Double ratio;
        Double ratioTarget;
        String target;
        Boolean met;

        Phase(String id, String title) {
            this.id = id;
            this.title = title;
        }

        /** A load's measure; {@code connections} of a closed loop, or null. */
        Phase measure(String name, Tally tally, Integer connections) {
            measures.put(name, Measure.of(tally, connections));
            return this;
        }

        /** The latency of the answers with one of {@code outcomes}; {@code p99Target} in ms, or null. */
        Phase latency(String name, Tally tally, Double p99Target, String... outcomes) {
            latencies.put(name, Latency.of(tally, p99Target, outcomes));
            return this;
        }

        Phase value(String name, double value) {
            boolean whole = value == Math.rint(value) && Math.abs(value) < 1e15;
            values.put(name, whole ? (Number) (long) value : round(value));
            return this;
        }

        /** A ratio whose target is {@code >= atLeast}; {@code target} says it in words. */
        Phase ratio(double ratio, double atLeast, String target) {
            return ratio(ratio, atLeast, target, true);
        }

        /** As {@link #ratio(double, double, String)}, met only when {@code alsoRequired} holds too. */
        Phase ratio(double ratio, double atLeast, String target, boolean alsoRequired) {
            this.ratio = round(ratio);
            this.ratioTarget = atLeast;
            return target(target, alsoRequired && ratio >= atLeast);
        }

        Phase ratio(double ratio) {
            this.ratio = round(ratio);
            return this;
        }

        Phase target(String target, boolean met) {
            this.target = target;
            this.met = met;
            return this;
        }

        Phase fact(String name, Object value) {
            facts.put(name, value);
            return this;
        }
    }

    Report(Environment environment) {
        this(environment, new ArrayList<>());
    }

    String table() {
        StringBuilder t = new StringBuilder("| Phase | Measure | Result |\n| --- | --- | --- |\n");
        for (Phase p : phases) {
            p.measures.forEach((name, m) -> t.append(row(
                    p.id,
                    name + " (req/s, p50, p99)",
                    "%s req/s, p50 %s ms, p99 %s ms".formatted(fmt(m.throughput()), fmt(m.p50Ms()), fmt(m.p99Ms())))));
            p.latencies.forEach((name, l) -> t.append(row(
                    p.id,
                    name + " (answers, p50, p99)",
                    "%s answers, p50 %s ms, p99 %s ms".formatted(l.answers(), fmt(l.p50Ms()), fmt(l.p99Ms())))));
            p.values.forEach((name, v) -> t.append(row(p.id, name, fmt(v))));
            if (p.ratio != null) {
                t.append(row(p.id, "**ratio**", "**" + fmt(p.ratio) + "**"));
            }
            if (p.target != null) {
                t.append(row(p.id, "target: " + p.target, p.met ? "**met**" : "**not met**"));
            }
        }
        return t.toString();
    }

    private static String row(String phase, String measure, String result) {
        return "| " + phase + " | " + measure + " | " + result + " |\n";
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        new ObjectMapper()
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .setSerializationInclusion(JsonInclude.Include.NON_NULL)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("results.json").toFile(), this);
        Chart.png(Chart.charts(phases, environment), dir.resolve("chart.png"));
    }

    static double round(double value) {
        return Double.isNaN(value) ? value : Math.round(value * 100) / 100.0;
    }

    /** A figure for reading: whole numbers and hundreds without decimals, else two significant places or so. */
    static String fmt(Object value) {
        if (!(value instanceof Number n)) {
            return String.valueOf(value);
        }
        double d = n.doubleValue();
        if (Double.isNaN(d)) {
            return "none";
        }
        String format = d == Math.rint(d) || Math.abs(d) >= 100 ? "%,.0f" : Math.abs(d) >= 10 ? "%.1f" : "%.2f";
        return String.format(Locale.ROOT, format, d);
    }
}
