package io.flashsale.bench;

import static org.jfree.chart.plot.PlotOrientation.HORIZONTAL;

import io.flashsale.bench.Report.Measure;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

/** chart.png: each phase's p50 and p99 against the p99 targets, the load curve, each ratio against its target. */
final class Chart {

    static final String CURVE = "curve";
    static final int WIDTH = 1000;
    private static final Color P50 = new Color(0x8db8ea);
    private static final Color P99 = new Color(0x1f5fae);
    private static final Color NOT_MET = new Color(0xc62828);
    private static final Map<String, Color> VERDICTS =
            Map.of("met", new Color(0x2e7d32), "not met", NOT_MET, "reported, no target", P50);

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Chart() {}

    static List<JFreeChart> charts(List<Report.Phase> phases, Report.Environment environment) {
        List<JFreeChart> charts = new ArrayList<>(List.of(latencies(phases, environment)));
        for (Report.Phase curve : phases) {
            if (curve.id.equals(CURVE) && !curve.measures.isEmpty()) {
                charts.add(curve(curve, "throughput (req/s)", List.of("throughput"), Measure::throughput));
                charts.add(curve(curve, "latency (ms)", List.of("p50", "p99"), Measure::p50Ms, Measure::p99Ms));
            }
        }
        charts.add(ratios(phases));
        for (JFreeChart chart : charts) {
            chart.getPlot().setBackgroundPaint(Color.WHITE);
            chart.getCategoryPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
        }
        return charts;
    }

    static void png(List<JFreeChart> charts, Path file) throws IOException {
        BufferedImage image =
                new BufferedImage(WIDTH, charts.stream().mapToInt(Chart::height).sum(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        int y = 0;
        for (JFreeChart chart : charts) {
            chart.draw(g, new Rectangle(0, y, WIDTH, height(chart)));
            y += height(chart);
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static int height(JFreeChart chart) {
        return 120
                + chart.getSubtitleCount() * 18
                + chart.getCategoryPlot().getCategories().size() * 22;
    }

    /** Every phase's loads and groups of answers but the curve's, under the machine and the run. */
    private static JFreeChart latencies(List<Report.Phase> phases, Report.Environment environment) {
        DefaultCategoryDataset bars = new DefaultCategoryDataset();
        DefaultCategoryDataset targets = new DefaultCategoryDataset();
        for (Report.Phase phase : phases) {
            if (!phase.id.equals(CURVE)) {
                phase.measures.forEach(
                        (name, load) -> bar(bars, targets, phase.id + " " + name, load.p50Ms(), load.p99Ms(), null));
                phase.latencies.forEach((name, group) ->
                        bar(bars, targets, phase.id + " " + name, group.p50Ms(), group.p99Ms(), group.p99TargetMs()));
            }
        }
        var chart = ChartFactory.createBarChart(null, null, null, bars, HORIZONTAL, true, false, false);
        chart.setTitle("Latency per phase: p50 and p99, p99 targets");
        chart.addSubtitle(new TextTitle(environment.machine()));
        chart.addSubtitle(new TextTitle(environment.run()));
        CategoryPlot plot = chart.getCategoryPlot();
        LogAxis axis = new LogAxis("ms (log scale)");
        axis.setTickUnit(new NumberTickUnit(1));
        axis.setNumberFormatOverride(NumberFormat.getNumberInstance(Locale.ROOT));
        plot.setRangeAxis(axis);
        ((BarRenderer) plot.getRenderer()).setIncludeBaseInRange(false);
        plot.getRenderer().setSeriesPaint(0, P50);
        plot.getRenderer().setSeriesPaint(1, P99);
        plot.setDataset(1, targets);
        plot.setRenderer(1, new LineAndShapeRenderer(false, true));
        plot.getRenderer(1).setSeriesPaint(0, NOT_MET);
        return chart;
    }

    /** A row's bars and its target, in the two datasets (whose rows must match). */
    private static void bar(
            DefaultCategoryDataset bars,
            DefaultCategoryDataset targets,
            String row,
            double p50,
            double p99,
            Double target) {
        if (!Double.isNaN(p99)) {
            bars.addValue(p50, "p50", row);
            bars.addValue(p99, "p99", row);
            targets.addValue(target, "p99 target", row);
        }
    }

    /** The load curve's {@code figures} by connections, the last one in the p99 colour. */
    @SafeVarargs
    private static JFreeChart curve(
            Report.Phase curve, String title, List<String> names, ToDoubleFunction<Measure>... figures) {
        DefaultCategoryDataset points = new DefaultCategoryDataset();
        curve.measures.values().stream()
                .filter(m -> m.connections() != null)
                .sorted(Comparator.comparing(Measure::connections))
                .forEach(m -> {
                    for (int i = 0; i < figures.length; i++) {
                        points.addValue(figures[i].applyAsDouble(m), names.get(i), m.connections());
                    }
                });
        JFreeChart chart = ChartFactory.createLineChart("Load curve: " + title, "connections", null, points);
        LineAndShapeRenderer renderer =
                (LineAndShapeRenderer) chart.getCategoryPlot().getRenderer();
        renderer.setDefaultShapesVisible(true);
        renderer.setSeriesPaint(0, figures.length == 1 ? P99 : P50);
        renderer.setSeriesPaint(1, P99);
        return chart;
    }

    /** Each ratio over its target (1: the target, or parity when it has none), coloured met or not. */
    private static JFreeChart ratios(List<Report.Phase> phases) {
        DefaultCategoryDataset bars = new DefaultCategoryDataset();
        for (Report.Phase p : phases) {
            if (p.ratio != null || p.target != null) {
                String verdict = p.target == null ? "reported, no target" : p.met ? "met" : "not met";
                Double value = p.ratio == null ? null : p.ratio / (p.ratioTarget == null ? 1 : p.ratioTarget);
                String label = p.id + (p.ratio == null ? "" : " " + Report.fmt(p.ratio)) + ": "
                        + (p.target == null ? "" : p.target + ", ") + verdict;
                bars.addValue(value, verdict, label);
            }
        }
        var chart =
                ChartFactory.createStackedBarChart(null, null, "ratio / target", bars, HORIZONTAL, true, false, false);
        chart.setTitle("Ratios against their targets (1: the target)");
        CategoryPlot plot = chart.getCategoryPlot();
        plot.addRangeMarker(new ValueMarker(1, Color.BLACK, new BasicStroke(2)));
        plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(0.5f);
        for (int i = 0; i < bars.getRowCount(); i++) {
            plot.getRenderer().setSeriesPaint(i, VERDICTS.get(bars.getRowKey(i)));
        }
        return chart;
    }
}
