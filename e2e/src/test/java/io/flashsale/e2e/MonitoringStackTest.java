package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The compose stack runs Prometheus with the tested rules, scraping the api (with its token), the
 * worker and the Temporal server, Grafana with the dashboard and that Prometheus as data source,
 * and Jaeger with the project's configuration, to which the api and the worker send their spans.
 */
class MonitoringStackTest {

    private static final Path ROOT = Path.of(System.getProperty("flashsale.root", ".."));
    private static final Pattern REQUIRED = Pattern.compile("\\$\\{[A-Za-z0-9_]+:\\?[^}]*}");

    private static ComposeFile stack;
    private static Map<String, Object> prometheus;

    @BeforeAll
    static void readFiles() throws IOException {
        stack = ComposeFile.read(ROOT.resolve("docker-compose.yml"));
        prometheus = ComposeFile.yaml(Files.readString(ROOT.resolve("deploy/prometheus/prometheus.yml")));
    }

    @Test
    void runsPrometheusWithTheTestedRulesAndItsConfig() {
        List<String> ruleFiles = words(prometheus.get("rule_files"));

        assertThat(ruleFiles).hasSize(1);
        assertThat(stack.volumes("prometheus"))
                .contains(
                        "./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro",
                        "./" + AlertRulesTest.RULES + ":" + ruleFiles.get(0) + ":ro");
    }

    @Test
    void scrapesTheApiTheWorkerAndTheTemporalServerOnTheirPorts() {
        String temporalMetrics = stack.environment("temporal").get("PROMETHEUS_ENDPOINT");

        assertThat(job("api")).containsEntry("metrics_path", "/actuator/prometheus");
        assertThat(targets("api"))
                .containsExactly("api:" + stack.environment("api").get("SERVER_PORT"));
        assertThat(job("worker")).containsEntry("metrics_path", "/actuator/prometheus");
        assertThat(targets("worker"))
                .containsExactly("worker:" + stack.environment("worker").get("SERVER_PORT"));
        assertThat(temporalMetrics).startsWith("0.0.0.0:");
        assertThat(targets("temporal"))
                .containsExactly("temporal:" + temporalMetrics.split(":")[1]);
    }

    @Test
    void scrapesTheApiWithTheRequiredMetricsTokenWrittenWhereTheJobReadsIt() throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> authorization = (Map<String, Object>) job("api").get("authorization");
        String entrypoint = String.join(" ", words(stack.service("prometheus").get("entrypoint")));
        String script = Files.readString(ROOT.resolve("deploy/prometheus/start.sh"));

        assertThat(authorization).containsEntry("type", "Bearer");
        assertThat(script).contains("\"$FLASHSALE_METRICS_TOKEN\" > " + authorization.get("credentials_file"));
        assertThat(entrypoint).isEqualTo("sh /etc/prometheus/start.sh");
        assertThat(stack.volumes("prometheus")).contains("./deploy/prometheus/start.sh:/etc/prometheus/start.sh:ro");
        assertThat(stack.environment("prometheus").get("FLASHSALE_METRICS_TOKEN"))
                .matches(REQUIRED);
    }

    @Test
    void provisionsGrafanaWithTheDashboardOnThisPrometheus() throws IOException {
        Map<String, Object> dataSources = ComposeFile.yaml(
                Files.readString(ROOT.resolve("deploy/grafana/provisioning/datasources/prometheus.yml")));
        Map<String, Object> dashboards = ComposeFile.yaml(
                Files.readString(ROOT.resolve("deploy/grafana/provisioning/dashboards/flashsale.yml")));
        Object dashboardPath = ((Map<?, ?>) first(dashboards, "providers").get("options")).get("path");
        String home = stack.environment("grafana").get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH");

        assertThat(first(dataSources, "datasources")).containsEntry("url", "http://prometheus:9090");
        assertThat(stack.publishedOn("prometheus")).containsExactly("127.0.0.1");
        assertThat(stack.volumes("grafana"))
                .contains(
                        "./deploy/grafana/provisioning:/etc/grafana/provisioning:ro",
                        "./deploy/grafana/dashboards:" + dashboardPath + ":ro");
        assertThat(home).startsWith(dashboardPath + "/");
        assertThat(ROOT.resolve("deploy/grafana/dashboards")
                        .resolve(Path.of(home).getFileName()))
                .exists();
        assertThat(stack.environment("grafana").get("GF_SECURITY_ADMIN_PASSWORD"))
                .matches(REQUIRED);
    }

    @Test
    void runsJaegerWithItsConfigurationWhereTheAppsSendTheirSpans() throws IOException {
        String config = Files.readString(ROOT.resolve("deploy/jaeger/config.yaml"));
        String otlpPort = defaultOf(config, "JAEGER_OTLP_PORT");
        String uiPort = defaultOf(config, "JAEGER_UI_PORT");

        assertThat(stack.volumes("jaeger")).containsExactly("./deploy/jaeger/config.yaml:/etc/jaeger/config.yaml:ro");
        assertThat(stack.command("jaeger")).containsExactly("--config", "/etc/jaeger/config.yaml");
        assertThat(stack.environment("jaeger")).containsEntry("JAEGER_LISTEN_HOST", "0.0.0.0");
        for (String app : List.of("api", "worker")) {
            assertThat(stack.environment(app))
                    .containsEntry("MANAGEMENT_OTLP_TRACING_ENDPOINT", "http://jaeger:" + otlpPort + "/v1/traces");
        }
        assertThat(words(stack.service("jaeger").get("ports")))
                .singleElement()
                .asString()
                .endsWith(":" + uiPort);
        assertThat(stack.publishedOn("jaeger")).containsExactly("127.0.0.1");
    }

    /** The default of {@code ${env:NAME:-default}} in Jaeger's configuration. */
    private static String defaultOf(String config, String variable) {
        var matcher = Pattern.compile("\\$\\{env:" + variable + ":-([0-9]+)}").matcher(config);
        assertThat(matcher.find())
                .as(variable + " in deploy/jaeger/config.yaml")
                .isTrue();
        return matcher.group(1);
    }

    private static List<String> targets(String jobName) {
        return words(first(job(jobName), "static_configs").get("targets"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> job(String name) {
        return ((List<Map<String, Object>>) prometheus.get("scrape_configs"))
                .stream()
                        .filter(job -> name.equals(job.get("job_name")))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no scrape job " + name + " in prometheus.yml"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> first(Map<String, Object> parent, String key) {
        return ((List<Map<String, Object>>) parent.get(key)).get(0);
    }

    private static List<String> words(Object value) {
        return value instanceof List<?> list
                ? list.stream().map(String::valueOf).toList()
                : List.of("" + value);
    }
}
