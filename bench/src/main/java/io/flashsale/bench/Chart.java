package io.flashsale.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * chart.svg: one run as a standalone SVG (no script, no external font; GitHub shows it as an
 * image): the latency percentiles of each phase (p50 and p99, log scale, with the p99 targets), the
 * load curve ({@link CurvePlot}) and each ratio against its target, met or not. chart.html: the same
 * SVG above the run's table.
 */
final class Chart {

    static final int WIDTH = 980;
    static final int LABEL_X = 20;
    static final String P50 = "#8db8ea";
    static final String P99 = "#1f5fae";
    static final String GRID = "#dddddd";
    static final String MUTED = "#555555";
    private static final String MET = "#2e7d32";
    private static final String NOT_MET = "#c62828";
    private static final int PLOT_X = 320;
    private static final int PLOT_END = 660;
    private static final int VALUE_X = 672;
    private static final int ROW = 20;
    private static final String BOLD = "font-weight=\"bold\"";
    private static final String DASHED = "stroke=\"" + NOT_MET + "\" stroke-width=\"2\" stroke-dasharray=\"4,3\"";

    private Chart() {}

    private record Row(String label, double p50, double p99, Double target) {}

    static String svg(List<Report.Phase> phases, Map<String, Object> environment) {
        Svg svg = new Svg();
        svg.text(LABEL_X, 28, "flashsale bench", "font-size=\"18\" " + BOLD);
        svg.text(LABEL_X, 48, machine(environment), "fill=\"" + MUTED + "\"");
        svg.text(LABEL_X, 66, String.valueOf(environment.getOrDefault("run", "")), "fill=\"" + MUTED + "\"");
        int y = latencies(svg, phases, 76);
        y = CurvePlot.draw(svg, phases, y);
        y = ratios(svg, phases, y);
        return svg.document(WIDTH, y + 16, "flashsale bench: latency per phase, load curve, ratios against targets");
    }

    static String html(String svg, String table) {
        return "<!doctype html><html><head><meta charset=\"utf-8\"><title>flashsale bench</title>"
                + "<style>body{font-family:sans-serif;margin:2em}pre{background:#f4f4f4;padding:1em}</style>"
                + "</head><body>" + svg.substring(svg.indexOf("<svg")) + "<h2>Table</h2><pre>" + Svg.escape(table)
                + "</pre></body></html>";
    }

    private static String machine(Map<String, Object> env) {
        return "%s CPUs (%s), %s RAM, %s, Temporal %s"
                .formatted(
                        env.get("cpus"),
                        env.get("cpu"),
                        memory(env.get("memory")),
                        env.get("java"),
                        env.get("temporal"));
    }

    /** /proc/meminfo's "24683584 kB" as "23.5 GiB"; anything else as it is. */
    static String memory(Object meminfo) {
        String text = String.valueOf(meminfo);
        if (!text.matches("\\d+ kB")) {
            return text;
        }
        double gib = Long.parseLong(text.substring(0, text.length() - 3)) / (1024.0 * 1024.0);
        return String.format(java.util.Locale.ROOT, "%.1f GiB", gib);
    }

    /** Every phase's loads and groups of answers (the curve has its own plot), one bar pair each. */
    private static int latencies(Svg svg, List<Report.Phase> phases, int top) {
        Map<Report.Phase, List<Row>> rows = new LinkedHashMap<>();
        phases.stream().filter(p -> !p.id.equals(CurvePlot.PHASE)).forEach(p -> rows.put(p, rows(p)));
        rows.values().removeIf(List::isEmpty);
        if (rows.isEmpty()) {
            return top;
        }
        LogScale scale =
                LogScale.over(rows.values().stream().flatMap(List::stream).toList(), PLOT_X, PLOT_END);
        svg.text(
                LABEL_X,
                top + 24,
                "Latency per phase, ms (log scale): p50 light, p99 dark; dashed red line: p99 target",
                "font-size=\"14\" " + BOLD);
        int y = top + 50;
        int height = rows.size() * (ROW + 6)
                + rows.values().stream().mapToInt(List::size).sum() * ROW;
        for (double tick : scale.ticks()) {
            svg.line(scale.x(tick), y - 4, scale.x(tick), y + height, "grid", "stroke=\"" + GRID + "\"");
            svg.text(scale.x(tick), y - 8, tickLabel(tick) + " ms", "text-anchor=\"middle\" fill=\"" + MUTED + "\"");
        }
        for (Map.Entry<Report.Phase, List<Row>> phase : rows.entrySet()) {
            svg.group("latency-" + phase.getKey().id, "phase");
            svg.text(LABEL_X, y + 16, phase.getKey().id + ": " + phase.getKey().title, BOLD);
            y += ROW + 6;
            for (Row row : phase.getValue()) {
                bars(svg, row, scale, y);
                y += ROW;
            }
            svg.end();
        }
        return y;
    }

    private static List<Row> rows(Report.Phase phase) {
        List<Row> rows = new ArrayList<>();
        phase.measures.forEach((name, m) -> rows.add(new Row(name, number(m, "p50_ms"), number(m, "p99_ms"), null)));
        phase.latencies.forEach((name, l) -> rows.add(new Row(
                name,
                number(l, "p50_ms"),
                number(l, "p99_ms"),
                l.containsKey("p99_target_ms") ? number(l, "p99_target_ms") : null)));
        rows.removeIf(row -> Double.isNaN(row.p99()));
        return rows;
    }

    private static void bars(Svg svg, Row row, LogScale scale, int y) {
        svg.text(LABEL_X + 12, y + 14, row.label(), "");
        svg.rect(PLOT_X, y + 3, scale.x(row.p99()) - PLOT_X, ROW - 6, P99, "p99");
        svg.rect(PLOT_X, y + 3, scale.x(row.p50()) - PLOT_X, ROW - 6, P50, "p50");
        String text = "p50 %s, p99 %s ms".formatted(num(row.p50()), num(row.p99()));
        if (row.target() == null) {
            svg.text(VALUE_X, y + 14, text, "");
            return;
        }
        double x = scale.x(row.target());
        svg.line(x, y, x, y + ROW, "target", DASHED);
        boolean met = row.p99() <= row.target();
        svg.text(
                VALUE_X,
                y + 14,
                text + "; target " + num(row.target()) + ": " + (met ? "met" : "not met"),
                "fill=\"" + (met ? MET : NOT_MET) + "\"");
    }

    /** Each ratio as a bar whose dashed line is its target (reached at the same place for every row). */
    private static int ratios(Svg svg, List<Report.Phase> phases, int top) {
        List<Report.Phase> judged =
                phases.stream().filter(p -> p.ratio != null || p.target != null).toList();
        if (judged.isEmpty()) {
            return top;
        }
        svg.text(
                LABEL_X,
                top + 30,
                "Ratios and targets: each bar against its own target (dashed line)",
                "font-size=\"14\" " + BOLD);
        int y = top + 44;
        for (Report.Phase phase : judged) {
            svg.group("ratio-" + phase.id, "ratio");
            ratio(svg, phase, y);
            svg.end();
            y += 46;
        }
        return y;
    }

    /** Line one: the bar, its target line and the value, met or not; line two: the target in words. */
    private static void ratio(Svg svg, Report.Phase phase, int y) {
        int left = 70;
        int targetX = 250;
        String verdict = phase.target == null ? "" : phase.met ? "met" : "not met";
        String colour = phase.target == null ? MUTED : phase.met ? MET : NOT_MET;
        svg.text(LABEL_X, y + 17, phase.id, BOLD);
        if (phase.ratio == null) {
            svg.text(left, y + 17, verdict, "fill=\"" + colour + "\" " + BOLD);
        } else if (phase.ratioTarget == null) {
            svg.rect(left, y + 5, Math.min(phase.ratio, 2.0) * (targetX - left), 16, P50, "ratio-bar");
            svg.line(targetX, y + 1, targetX, y + 25, "parity", "stroke=\"" + MUTED + "\" stroke-dasharray=\"1,3\"");
            svg.text(2 * targetX - left + 12, y + 17, num(phase.ratio) + ": reported, no target (dotted line: 1)", "");
        } else {
            double length = Math.min(phase.ratio / phase.ratioTarget, 2.0) * (targetX - left);
            svg.rect(left, y + 5, length, 16, colour, "ratio-bar");
            svg.line(targetX, y + 1, targetX, y + 25, "target", DASHED);
            svg.text(
                    2 * targetX - left + 12,
                    y + 17,
                    num(phase.ratio) + ": " + verdict,
                    "fill=\"" + colour + "\" " + BOLD);
        }
        if (phase.target != null) {
            svg.text(left, y + 39, "target: " + phase.target, "font-size=\"11\" fill=\"" + MUTED + "\"");
        }
    }

    static String tickLabel(double tick) {
        return tick >= 1 ? num(tick) : Double.toString(tick);
    }

    /** A figure for reading: whole numbers and hundreds without decimals, else two significant places or so. */
    static String num(double value) {
        if (Double.isNaN(value)) {
            return "none";
        }
        String format =
                value == Math.rint(value) || Math.abs(value) >= 100 ? "%,.0f" : Math.abs(value) >= 10 ? "%.1f" : "%.2f";
        return String.format(java.util.Locale.ROOT, format, value);
    }

    static double number(Map<String, Object> map, String key) {
        Object value = map.get(key);
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** Milliseconds on a log scale from the decade below the smallest p50 or target to the one above the largest. */
    private record LogScale(double low, double high, int from, int to) {

        static LogScale over(List<Row> rows, int from, int to) {
            double min = rows.stream()
                    .mapToDouble(r -> Math.max(
                            0.1, Math.min(Math.min(r.p50(), r.p99()), r.target() == null ? r.p99() : r.target())))
                    .min()
                    .orElse(1);
            double max = rows.stream()
                    .mapToDouble(r -> Math.max(r.p99(), r.target() == null ? 0 : r.target()))
                    .max()
                    .orElse(10);
            double low = Math.pow(10, Math.floor(Math.log10(min)));
            double high = Math.max(low * 10, Math.pow(10, Math.ceil(Math.log10(max))));
            return new LogScale(low, high, from, to);
        }

        double x(double millis) {
            double v = Math.min(high, Math.max(low, Double.isNaN(millis) ? low : millis));
            return from + (Math.log10(v) - Math.log10(low)) / (Math.log10(high) - Math.log10(low)) * (to - from);
        }

        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            for (double t = low; t <= high * 1.001; t *= 10) {
                ticks.add(t);
            }
            return ticks;
        }
    }
}
