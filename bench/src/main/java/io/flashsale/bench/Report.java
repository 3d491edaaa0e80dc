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

/** The run's one table (markdown), results.json and chart.html. */
final class Report {

    /** One phase's measures (throughput and latency), values, ratio against its ceiling and facts. */
    static final class Phase {
        final String id;
        final String title;
        final Map<String, Map<String, Object>> measures = new LinkedHashMap<>();
        final Map<String, Object> values = new LinkedHashMap<>();
        final Map<String, Object> facts = new LinkedHashMap<>();
        Double ratio;
        String target;
        boolean met;

        Phase(String id, String title) {
            this.id = id;
            this.title = title;
        }

        Phase measure(String name, Tally tally) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("requests", tally.answered());
            m.put("seconds", round(tally.seconds()));
            m.put("throughput", round(tally.throughput()));
            m.put("p50_ms", round(tally.millis(50)));
            m.put("p99_ms", round(tally.millis(99)));
            m.put("max_ms", round(tally.millis(100)));
            measures.put(name, m);
            return this;
        }

        Phase copy(Phase other, String name) {
            measures.put(name, other.measures.get(name));
            return this;
        }

        double throughput(String name) {
            return ((Number) measures.get(name).get("throughput")).doubleValue();
        }

        Phase value(String name, double value) {
            boolean whole = value == Math.rint(value) && Math.abs(value) < 1e15;
            values.put(name, whole ? (Object) (long) value : round(value));
            return this;
        }

        Phase ratio(double ratio, String target, boolean met) {
            this.ratio = round(ratio);
            return target(target, met);
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
            json.put("values", values);
            json.put("ratio", ratio);
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
            p.values.forEach((name, v) -> t.append(row(p.id, name, fmt(v))));
            if (p.ratio != null) {
                t.append(row(p.id, "**ratio**", "**" + fmt(p.ratio) + "**"));
            }
            t.append(row(p.id, "target: " + p.target, p.met ? "**met**" : "**not met**"));
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
        Files.writeString(dir.resolve("chart.html"), Chart.html(phases, environment, table()));
    }

    static double round(double value) {
        return Double.isNaN(value) ? value : Math.round(value * 100) / 100.0;
    }

    static String fmt(Object value) {
        if (value instanceof Double d) {
            return d >= 100 ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%.2f", d);
        }
        return String.valueOf(value);
    }
}
