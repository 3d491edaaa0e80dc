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
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.DoubleStream;

/** A run's phases where it ran: its one table (markdown), results.json and chart.png. */
record Report(Environment environment, List<Phase> phases) {

    Report(Environment environment) {
        this(environment, new ArrayList<>());
    }

    /** Where a run ran (CPUs, memory, Java, Temporal), the day and the settings, each process's niceness. */
    record Environment(String machine, String run, Map<String, Integer> niceness) {

        static Environment of(Phases on) {
            String java = System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
            String memory = memory(proc("meminfo", "MemTotal"));
            int cpus = Runtime.getRuntime().availableProcessors();
            String machine = "%s CPUs (%s), %s RAM, %s, %s"
                    .formatted(
                            cpus,
                            proc("cpuinfo", "model name"),
                            memory,
                            java,
                            on.stack().temporal());
            return new Environment(
                    machine, LocalDate.now() + ": " + on.settings(), on.cpu().niceness());
        }

        /** /proc/meminfo's "24683584 kB" as "23.5 GiB"; anything else as it is. */
        static String memory(String kb) {
            return kb.matches("\\d+ kB") ? fmt(Long.parseLong(kb.split(" ")[0]) / (1024.0 * 1024.0)) + " GiB" : kb;
        }

        /** The value of the first line of {@code /proc/FILE} that starts with {@code key}, or "?". */
        private static String proc(String file, String key) {
            try (var lines = Files.lines(Path.of("/proc", file))) {
                return lines.filter(l -> l.startsWith(key))
                        .map(l -> l.substring(l.indexOf(':') + 1).trim())
                        .findFirst()
                        .orElse("?");
            } catch (IOException | RuntimeException e) {
                return "?";
            }
        }
    }

    /** Throughput and latency of one load; {@code connections} of a closed loop, or null. */
    record Measure(long requests, double throughput, double p50Ms, double p99Ms, Integer connections) {}

    /** The latency of a group of answers; {@code p99TargetMs} when it has a target, or null. */
    record Latency(long answers, double p50Ms, double p90Ms, double p99Ms, double maxMs, Double p99TargetMs) {}

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
        Phase measure(String name, Tally load, Integer connections) {
            measures.put(
                    name,
                    new Measure(
                            load.answered(),
                            round(load.throughput()),
                            round(load.millis(50)),
                            round(load.millis(99)),
                            connections));
            return this;
        }

        /** The latency of the answers with one of {@code outcomes}; {@code p99Target} in ms, or null. */
        Phase latency(String name, Tally answers, Double p99Target, String... outcomes) {
            long count = Arrays.stream(outcomes).mapToLong(answers::count).sum();
            double[] ms = DoubleStream.of(50, 90, 99, 100)
                    .map(percentile -> round(answers.millis(percentile, outcomes)))
                    .toArray();
            latencies.put(name, new Latency(count, ms[0], ms[1], ms[2], ms[3], p99Target));
            return this;
        }

        Phase value(String name, double value) {
            boolean whole = value == Math.rint(value) && Math.abs(value) < 1e15;
            values.put(name, whole ? (Number) (long) value : round(value));
            return this;
        }

        /** A ratio whose target is {@code >= atLeast} (and {@code alsoRequired}); {@code target} says it in words. */
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

    String table() {
        StringBuilder t = new StringBuilder("| Phase | Measure | Result |\n| --- | --- | --- |\n");
        for (Phase p : phases) {
            p.measures.forEach((name, m) -> row(
                    t, p, name + " (req/s, p50, p99)", fmt(m.throughput()) + " req/s, " + ms(m.p50Ms(), m.p99Ms())));
            p.latencies.forEach((name, l) ->
                    row(t, p, name + " (answers, p50, p99)", l.answers() + " answers, " + ms(l.p50Ms(), l.p99Ms())));
            p.values.forEach((name, v) -> row(t, p, name, fmt(v)));
            if (p.ratio != null) {
                row(t, p, "**ratio**", "**" + fmt(p.ratio) + "**");
            }
            if (p.target != null) {
                row(t, p, "target: " + p.target, p.met ? "**met**" : "**not met**");
            }
        }
        return t.toString();
    }

    private static String ms(double p50, double p99) {
        return "p50 " + fmt(p50) + " ms, p99 " + fmt(p99) + " ms";
    }

    private static void row(StringBuilder table, Phase phase, String measure, String result) {
        table.append("| %s | %s | %s |\n".formatted(phase.id, measure, result));
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

    /** A figure for reading: whole numbers and hundreds without decimals, else about two significant places; NaN as "none". */
    static String fmt(Object value) {
        if (!(value instanceof Number n)) {
            return String.valueOf(value);
        }
        double d = n.doubleValue();
        String format = d == Math.rint(d) || Math.abs(d) >= 100 ? "%,.0f" : Math.abs(d) >= 10 ? "%.1f" : "%.2f";
        return Double.isNaN(d) ? "none" : String.format(Locale.ROOT, format, d);
    }
}
