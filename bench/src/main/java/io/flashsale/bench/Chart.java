package io.flashsale.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** chart.html: inline SVG bars, each measured path beside its ceiling, plus the table. */
final class Chart {

    private static final int WIDTH = 720;
    private static final int BAR = 26;

    private Chart() {}

    private record Bar(String label, double value, String unit) {}

    static String html(List<Report.Phase> phases, Map<String, Object> environment, String table) {
        StringBuilder html = new StringBuilder(
                        "<!doctype html><html><head><meta charset=\"utf-8\"><title>flashsale bench</title>"
                                + "<style>body{font-family:sans-serif;margin:2em}pre{background:#f4f4f4;padding:1em}</style>"
                                + "</head><body><h1>flashsale bench</h1><p>")
                .append(escape(environment.toString()))
                .append("</p>");
        for (Report.Phase phase : phases) {
            List<Bar> bars = bars(phase);
            if (!bars.isEmpty()) {
                html.append("<h2>")
                        .append(phase.id)
                        .append(": ")
                        .append(escape(phase.title))
                        .append("</h2>");
                html.append(svg(bars));
            }
        }
        return html.append("<h2>Table</h2><pre>")
                .append(escape(table))
                .append("</pre></body></html>")
                .toString();
    }

    private static List<Bar> bars(Report.Phase phase) {
        List<Bar> bars = new ArrayList<>();
        phase.measures.forEach(
                (name, m) -> bars.add(new Bar(name, ((Number) m.get("throughput")).doubleValue(), "req/s")));
        phase.values.forEach((name, v) -> {
            if (name.contains("/s") || name.contains("(ms)")) {
                bars.add(new Bar(name, ((Number) v).doubleValue(), ""));
            }
        });
        return bars;
    }

    private static String svg(List<Bar> bars) {
        double max = bars.stream()
                .mapToDouble(Bar::value)
                .filter(v -> !Double.isNaN(v))
                .max()
                .orElse(1);
        StringBuilder svg = new StringBuilder("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + WIDTH
                + "\" height=\"" + (bars.size() * (BAR + 8) + 8) + "\">");
        int y = 4;
        for (Bar bar : bars) {
            double v = Double.isNaN(bar.value()) ? 0 : bar.value();
            int w = (int) Math.max(1, (WIDTH - 420) * v / max);
            svg.append("<text x=\"0\" y=\"")
                    .append(y + 18)
                    .append("\" font-size=\"13\">")
                    .append(escape(bar.label()))
                    .append("</text>")
                    .append("<rect x=\"260\" y=\"")
                    .append(y)
                    .append("\" width=\"")
                    .append(w)
                    .append("\" height=\"")
                    .append(BAR)
                    .append("\" fill=\"#3b7dd8\"/>")
                    .append("<text x=\"")
                    .append(266 + w)
                    .append("\" y=\"")
                    .append(y + 18)
                    .append("\" font-size=\"13\">")
                    .append(Report.fmt(Report.round(v)))
                    .append(' ')
                    .append(bar.unit())
                    .append("</text>");
            y += BAR + 8;
        }
        return svg.append("</svg>").toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
