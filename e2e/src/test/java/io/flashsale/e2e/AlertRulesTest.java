package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The alert rules ({@link #RULES}) are valid, pass their promtool unit tests, each alert is shown
 * there firing and not firing, and they read only series the api and the worker export.
 */
class AlertRulesTest {

    private static final Path ROOT = Path.of(System.getProperty("flashsale.root", ".."));
    private static final Path PROMETHEUS = ROOT.resolve("deploy/prometheus");
    /** The alert rules, in the Helm chart (Helm reads only files inside a chart); compose mounts them. */
    static final String RULES = "deploy/helm/flashsale/files/rules.yml";

    private static Map<String, Object> rules;
    private static Map<String, Object> tests;
    private static Set<String> exported;

    @BeforeAll
    static void readRules() throws IOException {
        rules = ComposeFile.yaml(Files.readString(ROOT.resolve(RULES)));
        tests = ComposeFile.yaml(Files.readString(PROMETHEUS.resolve("rules_test.yml")));
        exported = ExportedSeries.read(ROOT);
    }

    @Test
    void passTheirUnitTests() throws Exception {
        ToolRun run = Promtool.run(
                "test", "rules", PROMETHEUS.resolve("rules_test.yml").toString());

        assertThat(run.exitCode()).as(run.output()).isZero();
    }

    @Test
    void areValidRulesLoadedByAValidPrometheusConfig() throws Exception {
        ToolRun rulesCheck = Promtool.run("check", "rules", ROOT.resolve(RULES).toString());
        ToolRun configCheck = Promtool.run(
                "check",
                "config",
                "--syntax-only",
                PROMETHEUS.resolve("prometheus.yml").toString());

        assertThat(rulesCheck.exitCode()).as(rulesCheck.output()).isZero();
        assertThat(configCheck.exitCode()).as(configCheck.output()).isZero();
        assertThat(ComposeFile.yaml(Files.readString(PROMETHEUS.resolve("prometheus.yml"))))
                .containsEntry("rule_files", List.of("/etc/prometheus/rules.yml"));
    }

    @Test
    void showEveryAlertFiringAndNotFiring() {
        Set<String> firing = new TreeSet<>();
        Set<String> silent = new TreeSet<>();
        for (Map<String, Object> test : list(tests, "tests")) {
            for (Map<String, Object> check : list(test, "alert_rule_test")) {
                List<?> expected = (List<?>) check.getOrDefault("exp_alerts", List.of());
                (expected == null || expected.isEmpty() ? silent : firing).add("" + check.get("alertname"));
            }
        }

        assertThat(alertNames()).isNotEmpty();
        assertThat(firing).as("alerts shown firing").containsExactlyInAnyOrderElementsOf(alertNames());
        assertThat(silent).as("alerts shown not firing").containsExactlyInAnyOrderElementsOf(alertNames());
    }

    @Test
    void readOnlySeriesTheAppsExport() {
        assertThat(rulesOfEveryGroup()).isNotEmpty().allSatisfy(rule -> assertThat(
                        PromQl.metricNames("" + rule.get("expr")))
                .as("series read by " + rule.get("alert"))
                .isNotEmpty()
                .isSubsetOf(exported));
    }

    @Test
    void testSeriesTheAppsExport() {
        Set<String> input = new TreeSet<>();
        for (Map<String, Object> test : list(tests, "tests")) {
            list(test, "input_series").forEach(series -> input.add(("" + series.get("series")).split("\\{", 2)[0]));
        }

        assertThat(input).isNotEmpty().isSubsetOf(exported);
    }

    private static Set<String> alertNames() {
        Set<String> names = new TreeSet<>();
        rulesOfEveryGroup().forEach(rule -> names.add("" + rule.get("alert")));
        return names;
    }

    private static List<Map<String, Object>> rulesOfEveryGroup() {
        return rulesOfEveryGroup(rules);
    }

    /** Every rule of {@link #RULES}. */
    static List<Map<String, Object>> rulesOfEveryGroup(Path root) throws IOException {
        return rulesOfEveryGroup(ComposeFile.yaml(Files.readString(root.resolve(RULES))));
    }

    private static List<Map<String, Object>> rulesOfEveryGroup(Map<String, Object> rules) {
        return list(rules, "groups").stream()
                .flatMap(group -> list(group, "rules").stream())
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> parent, String key) {
        return (List<Map<String, Object>>) parent.getOrDefault(key, List.of());
    }
}
