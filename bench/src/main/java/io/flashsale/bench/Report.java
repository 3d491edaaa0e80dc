package io.flashsale.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The run's one table (markdown), results.json and chart.png. */
final class Report {

    /**
     * One phase's measures (throughput and latency of a load, at a number of connections when it
     * says), latencies of groups of answers (e.g. winners, losers; a p99 target when they have one),
     * values, ratio against its ceiling (a ratio target when it has one), target and facts.
     */
    static final class Phase {
        final String id;
        final String title;
        final Map<String, Map<String, Object>> measures = new LinkedHashMap<>();
        final Map<String, Map<String, Object>> latencies = new LinkedHashMap<>();
        final Map<String, Object> values = new LinkedHashMap<>();
        final Map<String, Object> facts = new LinkedHashMap<>();
        Double ratio;
        Double ratioTarget;
        String target;
        Boolean met;

        Phase(String id, String title) {
            this.id = id;
            this.title = title;
        }

        Phase measure(String name, Tally tally) {
            measures.put(name, measureOf(tally));
            return this;
        }

        /** A closed-loop load's measure at {@code connections}. */
        Phase measure(String name, Tally tally, int connections) {
            Map<String, Object> m = measureOf(tally);
            m.put("connections", connections);
            measures.put(name, m);
            return this;
        }

        private static Map<String, Object> measureOf(Tally tally) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("requests", tally.answered());
            m.put("seconds", round(tally.seconds()));
            m.put("throughput", round(tally.throughput()));
            m.put("p50_ms", round(tally.millis(50)));
            m.put("p99_ms", round(tally.millis(99)));
            m.put("max_ms", round(tally.millis(100)));
            return m;
        }

        /** The latency of the answers with one of {@code outcomes}; {@code p99Target} in ms, or null. */
        Phase latency(String name, Tally tally, Double p99Target, String... outcomes) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put(
                    "answers",
                    java.util.Arrays.stream(outcomes).mapToLong(tally::count).sum());
            l.put("p50_ms", round(tally.millis(50, outcomes)));
            l.put("p90_ms", round(tally.millis(90, outcomes)));
            l.put("p99_ms", round(tally.millis(99, outcomes)));
            l.put("max_ms", round(tally.millis(100, outcomes)));
            if (p99Target != null) {
                l.put("p99_target_ms", p99Target);
            }
            latencies.put(name, l);
            return this;
        }

        Phase value(String name, double value) {
            boolean whole = value == Math.rint(value) && Math.abs(value) < 1e15;
            values.put(name, whole ? (Object) (long) value : round(value));
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

        /** A ratio without a target: reported only. */
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

        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("phase", id);
            json.put("title", title);
            json.put("measures", measures);
            json.put("latencies", latencies);
            json.put("values", values);
            json.put("ratio", ratio);
            json.put("ratio_target", ratioTarget);
            json.put("target", target);
            json.put("met", met);
            json.put("facts", facts);
            return json;
        }
    }

    private final List<Phase> phases = new ArrayList<>();
    private final Map<String, Object> environment;

    Report(Map<String, Object> environment) {
        this.environment = environment;
    }

    /** Where the run ran: the machine, the Temporal, the settings, each process's niceness. */
    Map<String, Object> environment() {
        return environment;
    }

    List<Phase> phases() {
        return phases;
    }

    void add(Phase phase) {
        phases.add(phase);
    }

    String table() {
        StringBuilder t = new StringBuilder("| Phase | Measure | Result |\n| --- | --- | --- |\n");
        for (Phase p : phases) {
            p.measures.forEach((name, m) -> t.append(row(
                    p.id,
                    name + " (req/s, p50, p99)",
                    "%s req/s, p50 %s ms, p99 %s ms"
                            .formatted(fmt(m.get("throughput")), fmt(m.get("p50_ms")), fmt(m.get("p99_ms"))))));
            p.latencies.forEach((name, l) -> t.append(row(
                    p.id,
                    name + " (answers, p50, p99)",
                    "%s answers, p50 %s ms, p99 %s ms"
                            .formatted(fmt(l.get("answers")), fmt(l.get("p50_ms")), fmt(l.get("p99_ms"))))));
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
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("environment", environment);
        json.put("phases", phases.stream().map(Phase::json).toList());
        new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(dir.resolve("results.json").toFile(), json);
        Chart.png(Chart.charts(phases, environment), dir.resolve("chart.png"));
    }

    static double round(double value) {
        return Double.isNaN(value) ? value : Math.round(value * 100) / 100.0;
    }

    static String fmt(Object value) {
        if (value instanceof Double d) {
            return d.isNaN()
                    ? "none"
                    : d >= 100 ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%.2f", d);
        }
        return String.valueOf(value);
    }
}
