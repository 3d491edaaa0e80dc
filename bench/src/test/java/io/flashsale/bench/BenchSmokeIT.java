package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.launcher.FlashSaleStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every phase once with ~50 requests on a private stack (api, worker, dev Temporal as processes).
 * Correctness only: nothing here is timed. Every answer must be the expected outcome, so a 5xx, a
 * connection error or a rate limit fails it.
 */
class BenchSmokeIT {

    @Test
    void runsEveryPhaseWithoutOversellingOrDuplicating() throws Exception {
        Path out = Path.of("target", "bench-smoke");
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench)
                .setOverwrittenOptionsAllowed(true)
                .parseArgs("--smoke", "--root", System.getProperty("flashsale.root", ".."), "--out", out.toString());
        Settings settings = bench.settings();
        Report report = bench.report();

        Map<String, Report.Phase> phases = new java.util.HashMap<>();
        report.phases().forEach(p -> phases.put(p.id, p));
        assertThat(phases).containsKeys("P1", "curve", "P2", "P3", "P4");
        // the asynchronous back-end yields the cores to the answer path, as bin/flashsale up runs it
        assertThat(report.environment().niceness())
                .containsEntry("api", 0)
                .containsEntry("worker", FlashSaleStack.BACK_END_NICE)
                .containsEntry("temporal", FlashSaleStack.BACK_END_NICE);
        // every phase says how much of the box the hypervisor took meanwhile (Linux: /proc/stat)
        assertThat(phases.values()).allSatisfy(p -> assertThat(p.values).containsKey(BenchCommand.STOLEN));
        for (int connections : settings.p1Connections()) {
            assertThat(phases.get("P1").facts.get("purchase outcomes, " + connections + " connections"))
                    .isEqualTo(Map.of("sold-out", 50L));
            assertThat(phases.get("P1").facts.get("liveness outcomes, " + connections + " connections"))
                    .isEqualTo(Map.of("up", 50L));
        }
        for (int connections : settings.curve) {
            assertThat(phases.get("curve").facts.get("purchase outcomes, " + connections + " connections"))
                    .isEqualTo(Map.of("sold-out", 50L));
        }
        assertThat(phases.get("P3").facts.get("purchases settled")).isEqualTo(30L);
        assertThat(phases.get("P3").facts.get("trivial completed")).isEqualTo(30L);
        assertContestOnBothDesigns(phases.get("P2"));
        assertOpenLoopSale(phases.get("P4"));
        assertThat(Files.exists(out.resolve("results.json"))).isTrue();
        assertThat(ImageIO.read(out.resolve("chart.png").toFile()).getWidth()).isEqualTo(Chart.WIDTH);
    }

    /** 50 buyers for 10 units on each side: exactly 10 winners, 40 sold-out, nothing else. */
    private static void assertContestOnBothDesigns(Report.Phase p2) {
        assertThat(p2.facts.get(SalePhases.API + " outcomes")).isEqualTo(Map.of("admitted", 10L, "sold-out", 40L));
        assertThat(p2.facts.get(SalePhases.BASELINE + " outcomes")).isEqualTo(Map.of("created", 10L, "sold-out", 40L));
        assertThat(p2.values.get(SalePhases.BASELINE + ": winners in its orders table"))
                .isEqualTo(10L);
        assertThat(p2.values.get(SalePhases.API + ": oversold (audit)")).isEqualTo(0L);
        assertThat(p2.values.get(SalePhases.API + ": duplicate orders (audit)")).isEqualTo(0L);
        assertThat(p2.facts.get(SalePhases.BASELINE + " answer to a forged token"))
                .isEqualTo(Map.of("unauthorized", 1L));
        assertThat(p2.facts.get(SalePhases.API + " mysql balanced")).isEqualTo(true);
        // the baseline answered from a process of its own, whose CPU the bench counted apart
        assertThat(p2.facts.get(SalePhases.BASELINE_CPU))
                .asInstanceOf(InstanceOfAssertFactories.map(String.class, Double.class))
                .hasEntrySatisfying(DbBaseline.NAME, ms -> assertThat(ms).isPositive());
    }

    private static void assertOpenLoopSale(Report.Phase p4) {
        assertThat(p4.values.get("oversold")).isEqualTo(0L);
        assertThat(p4.values.get("duplicate orders")).isEqualTo(0L);
        assertThat(p4.values.get("admitted")).isEqualTo(10L);
        assertThat(p4.facts.get("mysql balanced")).isEqualTo(true);
        assertThat(p4.facts.get("redis balanced")).isEqualTo(true);
        @SuppressWarnings("unchecked")
        Map<String, Long> outcomes = (Map<String, Long>) p4.facts.get("outcomes");
        assertThat(outcomes.keySet())
                .as("no connection error, 5xx or rate limit: every request answered with a purchase outcome")
                .isSubsetOf(List.of("admitted", "same-key", "already-purchased", "sold-out"));
        assertThat(outcomes.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(p4.values.get("requests"));
    }
}
