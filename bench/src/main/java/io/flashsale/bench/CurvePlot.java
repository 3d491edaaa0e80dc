package io.flashsale.bench;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The load curve's part of {@link Chart}: throughput, and p50 and p99, by connections, two plots
 * side by side, one point per measured connection count (evenly spaced, labelled).
 */
final class CurvePlot {

    static final String PHASE = "curve";
    private static final int WIDTH = 450;
    private static final int HEIGHT = 210;

    private CurvePlot() {}

    private record Series(String name, double[] values, String colour, boolean labelAbove) {}

    /** Draws the curve phase's plots below {@code top}; answers the y below them (top when no curve ran). */
    static int draw(Svg svg, List<Report.Phase> phases, int top) {
        Report.Phase curve =
                phases.stream().filter(p -> p.id.equals(PHASE)).findFirst().orElse(null);
        if (curve == null || curve.measures.isEmpty()) {
            return top;
        }
        List<Map<String, Object>> points = curve.measures.values().stream()
                .filter(m -> m.containsKey("connections"))
                .sorted(Comparator.comparingDouble(m -> Chart.number(m, "connections")))
                .toList();
        svg.text(Chart.LABEL_X, top + 34, "Load curve: " + curve.title, "font-size=\"14\" font-weight=\"bold\"");
        svg.group(PHASE, "curve");
        int y = top + 50;
        plot(
                svg,
                Chart.LABEL_X,
                y,
                "throughput (req/s)",
                points,
                List.of(series(points, "throughput", Chart.P99, true)));
        plot(
                svg,
                Chart.LABEL_X + WIDTH + 40,
                y,
                "latency (ms): p50 light, p99 dark",
                points,
                List.of(series(points, "p50_ms", Chart.P50, false), series(points, "p99_ms", Chart.P99, true)));
        svg.end();
        return y + HEIGHT + 10;
    }

    private static Series series(List<Map<String, Object>> points, String key, String colour, boolean above) {
        return new Series(
                key, points.stream().mapToDouble(m -> Chart.number(m, key)).toArray(), colour, above);
    }

    private static void plot(
            Svg svg, int left, int top, String title, List<Map<String, Object>> points, List<Series> series) {
        double x0 = left + 60;
        double x1 = left + WIDTH - 10;
        double y0 = top + 26;
        double y1 = top + HEIGHT - 36;
        double max = series.stream()
                        .flatMapToDouble(s -> java.util.Arrays.stream(s.values()))
                        .filter(v -> !Double.isNaN(v))
                        .max()
                        .orElse(1)
                * 1.2;
        svg.text(left, top + 12, title, "font-weight=\"bold\"");
        for (int i = 0; i <= 4; i++) {
            double y = y1 - (y1 - y0) * i / 4;
            svg.line(x0, y, x1, y, "grid", "stroke=\"" + Chart.GRID + "\"");
            svg.text(x0 - 6, y + 4, Chart.num(max * i / 4), "text-anchor=\"end\" fill=\"" + Chart.MUTED + "\"");
        }
        double[] xs = new double[points.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = x0 + (x1 - x0) * (i + 0.5) / xs.length;
            svg.text(xs[i], y1 + 16, Report.fmt(points.get(i).get("connections")), "text-anchor=\"middle\"");
        }
        svg.text((x0 + x1) / 2, y1 + 32, "connections", "text-anchor=\"middle\" fill=\"" + Chart.MUTED + "\"");
        for (Series s : series) {
            double[] ys = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                double v = Double.isNaN(s.values()[i]) ? 0 : s.values()[i];
                ys[i] = y1 - (y1 - y0) * v / max;
            }
            svg.polyline(xs, ys, s.colour(), "series " + s.name());
            for (int i = 0; i < xs.length; i++) {
                svg.circle(xs[i], ys[i], 4, s.colour(), "point");
                boolean onAxis = !s.labelAbove() && ys[i] + 16 > y1 - 4;
                svg.text(
                        xs[i] + (onAxis ? 8 : 0),
                        s.labelAbove() ? ys[i] - 8 : onAxis ? ys[i] - 6 : ys[i] + 16,
                        Chart.num(s.values()[i]),
                        (onAxis ? "" : "text-anchor=\"middle\" ") + "font-size=\"11\"");
            }
        }
    }
}
