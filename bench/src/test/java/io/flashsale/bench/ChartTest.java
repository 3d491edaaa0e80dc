package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class ChartTest {

    private static final Map<String, Object> ENVIRONMENT =
            Map.of("cpus", 2, "cpu", "test cpu", "memory", "1 kB", "java", "java 17", "temporal", "dev server");

    @Test
    void drawsEachPhasesLatencyBarsTheCurveAndEachRatioAgainstItsTarget() throws Exception {
        Document svg = parse(Chart.svg(phases(), ENVIRONMENT));

        assertThat(svg.getDocumentElement().getTagName()).isEqualTo("svg");
        for (String phase : List.of("P1", "P2", "P4")) {
            assertThat(count(svg, "//*[@id='latency-" + phase + "']//*[@class='p99']"))
                    .as("p99 bars of " + phase)
                    .isPositive();
            assertThat(count(svg, "//*[@id='latency-" + phase + "']//*[@class='p50']"))
                    .as("p50 bars of " + phase)
                    .isPositive();
        }
        assertThat(count(svg, "//*[@id='latency-P4']//*[@class='target']")).isEqualTo(2);
        assertThat(count(svg, "//*[@id='curve']//*[@class='point']")).isEqualTo(3 * 4);
        assertThat(count(svg, "//*[@id='ratio-P1']//*[@class='ratio-bar']")).isEqualTo(1);
        assertThat(count(svg, "//*[@id='ratio-P1']//*[@class='target']")).isEqualTo(1);
        assertThat(count(svg, "//*[@id='ratio-P2']//*[@class='target']")).isEqualTo(1);
        assertThat(text(svg, "//*[@id='ratio-P1']")).contains("not met");
        assertThat(text(svg, "//*[@id='ratio-P2']")).contains("met").doesNotContain("not met");
        assertThat(text(svg, "//*[@id='ratio-P4']")).contains("not met");
    }

    @Test
    void isStandaloneWithoutScriptsOrExternalResources() {
        String svg = Chart.svg(phases(), ENVIRONMENT);

        assertThat(svg).startsWith("<?xml").doesNotContain("<script", "@import", "href=", "@font-face");
    }

    @Test
    void leavesOutWhatDidNotRun() throws Exception {
        Report.Phase p1 = soldOutPhase("P1", List.of(64, 200)).ratio(0.5, 0.9, "purchase / liveness >= 0.9");

        Document svg = parse(Chart.svg(List.of(p1), ENVIRONMENT));

        assertThat(count(svg, "//*[@id='curve']")).isZero();
        assertThat(count(svg, "//*[@id='latency-P1']")).isEqualTo(1);
    }

    @Test
    void showsTheMachinesMemoryInGibibytes() {
        assertThat(Chart.memory("24683584 kB")).isEqualTo("23.5 GiB");
        assertThat(Chart.memory("?")).isEqualTo("?");
    }

    private static List<Report.Phase> phases() {
        List<Report.Phase> phases = new ArrayList<>();
        phases.add(soldOutPhase("P1", List.of(64, 200)).ratio(0.58, 0.9, "purchase / liveness >= 0.9"));
        phases.add(soldOutPhase(CurvePlot.PHASE, List.of(16, 64, 200, 800)));
        Tally contest = answers(Map.of(202, 5, 409, 95));
        phases.add(new Report.Phase("P2", "contest")
                .latency("api winners", contest, null, "admitted")
                .latency("api losers", contest, null, "sold-out")
                .ratio(4.2, 3, "baseline time / api time >= 3"));
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

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static int count(Document svg, String xpath) throws Exception {
        return ((NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, svg, XPathConstants.NODESET))
                .getLength();
    }

    private static String text(Document svg, String xpath) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(xpath, svg);
    }
}
