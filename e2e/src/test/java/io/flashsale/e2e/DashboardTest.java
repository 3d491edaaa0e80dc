package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard of deploy/grafana is valid JSON whose every panel queries the provisioned
 * Prometheus with PromQL that parses and reads only series the api and the worker export.
 */
class DashboardTest {

    private static final Path ROOT = Path.of(System.getProperty("flashsale.root", ".."));
    private static final Path GRAFANA = ROOT.resolve("deploy/grafana");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A template variable's query: {@code label_values(metric or expression, label)}. */
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.+),\\s*\\w+\\)");

    private static JsonNode dashboard;
    private static Set<String> exported;

    @BeforeAll
    static void readDashboard() throws IOException {
        dashboard = JSON.readTree(GRAFANA.resolve("dashboards/flashsale.json").toFile());
        exported = ExportedSeries.read(ROOT);
    }

    @Test
    void hasAUidAndUniquePanelIds() {
        List<Integer> ids =
                panels().stream().map(panel -> panel.path("id").asInt()).toList();

        assertThat(dashboard.path("uid").asText()).isNotBlank();
        assertThat(ids).doesNotHaveDuplicates().doesNotContain(0);
    }

    @Test
    void queriesTheProvisionedPrometheusFromEveryPanel() throws IOException {
        Map<String, Object> provisioned =
                ComposeFile.yaml(Files.readString(GRAFANA.resolve("provisioning/datasources/prometheus.yml")));
        @SuppressWarnings("unchecked")
        Map<String, Object> source = ((List<Map<String, Object>>) provisioned.get("datasources")).get(0);

        assertThat(source).containsEntry("type", "prometheus");
        assertThat(charts()).isNotEmpty().allSatisfy(panel -> {
            assertThat(panel.path("targets")).as(title(panel)).isNotEmpty();
            panel.path("targets").forEach(target -> {
                assertThat(target.path("expr").asText()).as(title(panel)).isNotBlank();
                assertThat(target.path("datasource").path("uid").asText())
                        .as(title(panel))
                        .isEqualTo(source.get("uid"));
            });
        });
    }

    @Test
    void readsOnlySeriesTheAppsExport() {
        assertThat(expressions()).isNotEmpty().allSatisfy((where, expression) -> assertThat(
                        PromQl.metricNames(expression))
                .as(where + ": " + expression)
                .isNotEmpty()
                .isSubsetOf(exported));
    }

    /** Each expression, its Grafana variables filled in, as a recording rule promtool checks. */
    @Test
    void writesEveryExpressionInValidPromQl(@TempDir Path directory) throws Exception {
        List<Map<String, String>> rules = new ArrayList<>();
        expressions()
                .forEach((where, expression) -> rules.add(Map.of(
                        "record",
                        "dashboard:" + where.replaceAll("\\W+", "_"),
                        "expr",
                        withVariablesFilledIn(expression))));
        Path file = directory.resolve("dashboard-rules.yml");
        Files.writeString(
                file, JSON.writeValueAsString(Map.of("groups", List.of(Map.of("name", "dashboard", "rules", rules)))));

        ToolRun check = Promtool.run("check", "rules", file.toString());

        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains(rules.size() + " rules found");
    }

    /** Every PromQL expression of the dashboard, by panel and query (or template variable). */
    private static Map<String, String> expressions() {
        return expressions(dashboard);
    }

    /** Every PromQL expression of deploy/grafana's dashboard, by panel and query (or template variable). */
    static Map<String, String> expressions(Path root) throws IOException {
        return expressions(JSON.readTree(
                root.resolve("deploy/grafana/dashboards/flashsale.json").toFile()));
    }

    private static Map<String, String> expressions(JsonNode dashboard) {
        Map<String, String> expressions = new LinkedHashMap<>();
        for (JsonNode panel : charts(dashboard)) {
            panel.path("targets")
                    .forEach(target -> expressions.put(
                            "panel " + panel.path("id").asInt() + " "
                                    + target.path("refId").asText(),
                            target.path("expr").asText()));
        }
        dashboard.path("templating").path("list").forEach(variable -> {
            Matcher query =
                    LABEL_VALUES.matcher(variable.path("query").path("query").asText());
            assertThat(query.matches()).as("variable " + variable.path("name")).isTrue();
            expressions.put("variable " + variable.path("name").asText(), query.group(1));
        });
        return expressions;
    }

    static String withVariablesFilledIn(String expression) {
        return expression.replaceAll("\\$__\\w+", "5m").replaceAll("\\$\\w+", ".*");
    }

    /** Every panel but the rows that only group them. */
    private static List<JsonNode> charts() {
        return charts(dashboard);
    }

    private static List<JsonNode> charts(JsonNode dashboard) {
        return panels(dashboard).stream()
                .filter(panel -> !"row".equals(panel.path("type").asText()))
                .toList();
    }

    private static List<JsonNode> panels() {
        return panels(dashboard);
    }

    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        dashboard.path("panels").forEach(panels::add);
        return panels;
    }

    private static String title(JsonNode panel) {
        return "panel " + panel.path("id").asInt() + " " + panel.path("title").asText();
    }
}
