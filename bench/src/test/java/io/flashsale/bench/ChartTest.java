package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.data.category.CategoryDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartTest {

    private static final Report.Environment ENVIRONMENT =
            new Report.Environment("2 CPUs (test cpu), 1 kB RAM, java 17, dev server", "today", Map.of());

    @Test
    void drawsEachPhasesLatencyBarsTheCurveAndEachRatioAgainstItsTarget() {
        List<JFreeChart> charts = Chart.charts(phases(), ENVIRONMENT);

        assertThat(charts).hasSize(4);
        CategoryDataset latencies = charts.get(0).getCategoryPlot().getDataset(0);
        assertThat(latencies.getRowKeys()).containsExactly("p50", "p99");
        assertThat(latencies.getColumnKeys())
                .containsExactly(
                        "P1 purchase, 64 connections",
                        "P1 purchase, 200 connections",
                        "P2 api winners",
                        "P2 api losers",
                        "P4 winners",
                        "P4 losers");
        CategoryDataset targets = charts.get(0).getCategoryPlot().getDataset(1);
        assertThat(targets.getValue("p99 target", "P4 losers")).isEqualTo(25.0);
        assertThat(charts.get(1).getCategoryPlot().getDataset().getColumnKeys()).containsExactly(16, 64, 200, 800);
        assertThat(charts.get(2).getCategoryPlot().getDataset().getRowKeys()).containsExactly("p50", "p99");
        CategoryDataset ratios = charts.get(3).getCategoryPlot().getDataset();
        assertThat(ratios.getColumnKeys())
                .containsExactly(
                        "P1 0.58: purchase / liveness >= 0.9, not met",
                        "P2 4.20: baseline time / api time >= 3, met",
                        "P4: losers p99 <= 25 ms; winners p99 <= 250 ms, not met",
                        "P5 1.02: reported, no target");
        assertThat(ratios.getValue("met", "P2 4.20: baseline time / api time >= 3, met"))
                .satisfies(v -> assertThat(v.doubleValue()).isCloseTo(4.2 / 3, within(1e-9)));
    }

    @Test
    void leavesOutWhatDidNotRun() {
        Report.Phase p1 = soldOutPhase("P1", List.of(64, 200)).ratio(0.5, 0.9, "purchase / liveness >= 0.9", true);

        List<JFreeChart> charts = Chart.charts(List.of(p1), ENVIRONMENT);

        assertThat(charts).hasSize(2);
    }

    @Test
    void writesOnePngOfEveryPlot(@TempDir Path dir) throws Exception {
        Chart.png(Chart.charts(phases(), ENVIRONMENT), dir.resolve("chart.png"));

        BufferedImage image = ImageIO.read(dir.resolve("chart.png").toFile());
        assertThat(image.getWidth()).isEqualTo(Chart.WIDTH);
        assertThat(image.getHeight()).isGreaterThan(4 * 120);
    }

    @Test
    void showsTheMachinesMemoryInGibibytes() {
        assertThat(Report.Environment.memory("24683584 kB")).isEqualTo("23.5 GiB");
        assertThat(Report.Environment.memory("?")).isEqualTo("?");
    }

    private static List<Report.Phase> phases() {
        List<Report.Phase> phases = new ArrayList<>();
        phases.add(soldOutPhase("P1", List.of(64, 200)).ratio(0.58, 0.9, "purchase / liveness >= 0.9", true));
        phases.add(soldOutPhase(Chart.CURVE, List.of(16, 64, 200, 800)));
        Tally contest = answers(Map.of(202, 5, 409, 95));
        phases.add(new Report.Phase("P2", "contest")
                .latency("api winners", contest, null, "admitted")
                .latency("api losers", contest, null, "sold-out")
                .ratio(4.2, 3, "baseline time / api time >= 3", true));
        phases.add(new Report.Phase("P4", "open loop")
                .latency("winners", contest, 250.0, "admitted")
                .latency("losers", contest, 25.0, "sold-out")
                .target("losers p99 <= 25 ms; winners p99 <= 250 ms", false));
        phases.add(new Report.Phase("P5", "cluster").ratio(1.02));
        return phases;
    }

    private static Report.Phase soldOutPhase(String id, List<Integer> connections) {
        Report.Phase phase = new Report.Phase(id, "sold-out purchase");
        for (int c : connections) {
            phase.measure("purchase, " + c + " connections", answers(Map.of(409, 10 * c)), c);
        }
        return phase;
    }

    /** A tally with {@code count} answers of each status, latencies growing from 1 to 100 ms. */
    private static Tally answers(Map<Integer, Integer> counts) {
        Tally tally = new Tally(null);
        counts.forEach((status, count) -> {
            String body = status == 409 ? "{\"type\":\"https://flashsale.io/problems/sold-out\"}" : "{}";
            for (int i = 0; i < count; i++) {
                tally.answered(i, status, body, 1_000_000L * (1 + i % 100));
            }
        });
        return tally;
    }
}
