package io.flashsale.e2e;

import static io.flashsale.e2e.RenderedChart.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.testkit.DevSecrets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Helm chart deploy/helm/flashsale passes {@code helm lint}, renders objects that decode strictly
 * into their Kubernetes API types (deploy/helm/check), takes every secret from an existing Secret and
 * renders the alert rules of the one rules file. Nothing here runs Kubernetes.
 */
class HelmChartTest {

    /** Values sets an operator uses: the defaults, production, two worker builds, a Redis Cluster. */
    private static final List<List<String>> VALUES = List.of(
            List.of(),
            FlashSaleChart.PRODUCTION,
            List.of("--set", "worker.builds[0].id=a,worker.builds[1].id=b"),
            List.of("--set", "redis.cluster.nodes={redis-0:6379,redis-1:6379,redis-2:6379}"));

    private static FlashSaleChart chart;
    private static ChartCheck checker;

    @BeforeAll
    static void buildTools() throws IOException {
        chart = FlashSaleChart.build();
        checker = ChartCheck.locateOrBuild(FlashSaleChart.ROOT);
    }

    @Test
    void passesHelmLintWithTheDefaultAndTheProductionValues() throws Exception {
        for (List<String> values : List.of(List.<String>of(), FlashSaleChart.PRODUCTION)) {
            ToolRun lint = chart.lint(values);

            assertThat(lint.exitCode()).as(lint.output()).isZero();
            assertThat(lint.output()).contains("0 chart(s) failed").doesNotContain("[WARNING]", "[ERROR]");
        }
    }

    @Test
    void rendersOnlyObjectsThatDecodeStrictlyIntoTheirKubernetesTypes() throws Exception {
        for (List<String> values : VALUES) {
            RenderedChart rendered = chart.render(values);
            ToolRun check = checker.check(rendered.text());

            assertThat(check.exitCode()).as(values + "\n" + check.output()).isZero();
            assertThat(check.output().lines())
                    .as(values.toString())
                    .hasSize(rendered.objects().size());
        }
    }

    @Test
    void rendersEachKindTheDeploymentNeeds() throws Exception {
        RenderedChart rendered = chart.render(FlashSaleChart.PRODUCTION);

        assertThat(rendered.objects())
                .extracting(object -> object.get("apiVersion") + " " + object.get("kind"))
                .containsExactlyInAnyOrder(
                        "apps/v1 Deployment",
                        "apps/v1 Deployment",
                        "v1 Service",
                        "v1 Service",
                        "autoscaling/v2 HorizontalPodAutoscaler",
                        "policy/v1 PodDisruptionBudget",
                        "policy/v1 PodDisruptionBudget",
                        "keda.sh/v1alpha1 ScaledObject",
                        "monitoring.coreos.com/v1 ServiceMonitor",
                        "monitoring.coreos.com/v1 PrometheusRule");
    }

    @Test
    void rejectsAValueOfTheWrongTypeInARenderedObject() throws Exception {
        ToolRun check =
                checker.check(chart.render(List.of("--set", "api.port=eighty")).text());

        assertThat(check.exitCode()).as(check.output()).isEqualTo(1);
        assertThat(check.output())
                .contains("FAIL flashsale/templates/api-deployment.yaml")
                .contains("containerPort of type int32");
    }

    @Test
    void rejectsAnUnknownFieldInARenderedObject() throws Exception {
        RenderedChart rendered =
                chart.render(List.of("--set", "worker.extraEnv[0].name=LOG_FORMAT,worker.extraEnv[0].valu=ecs"));
        ToolRun check = checker.check(rendered.text());

        assertThat(check.exitCode()).as(check.output()).isEqualTo(1);
        assertThat(check.output())
                .contains("FAIL flashsale/templates/worker-deployment.yaml")
                .contains("unknown field \"spec.template.spec.containers[0].env[")
                .contains("].valu\"");
    }

    @Test
    void rejectsAKindItDoesNotKnow() throws Exception {
        String widget = "---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n";
        ToolRun check = checker.check(chart.render(List.of()).text() + widget);

        assertThat(check.exitCode()).as(check.output()).isEqualTo(1);
        assertThat(check.output()).contains("no kind \"Widget\" is registered");
    }

    @Test
    void refusesToRenderWithoutTheNameOfEachSecret() throws Exception {
        for (String secret : FlashSaleChart.SECRET_NAMES.keySet()) {
            Map<String, String> others = new TreeMap<>(FlashSaleChart.SECRET_NAMES);
            others.remove(secret);
            ToolRun template = chart.template(FlashSaleChart.CHART, others, List.of());

            assertThat(template.exitCode()).as(secret).isNotZero();
            assertThat(template.output()).as(secret).contains(secret + ": the name of an existing Secret");
        }
    }

    @Test
    void takesEverySecretFromAnExistingSecretAndRendersNone() throws Exception {
        RenderedChart rendered = chart.render(FlashSaleChart.PRODUCTION);

        assertThat(rendered.ofKind("Secret")).isEmpty();
        assertThat(rendered.text()).doesNotContain(DevSecrets.jwt(), DevSecrets.paymentWebhook());
        for (Map<String, Object> deployment : rendered.ofKind("Deployment")) {
            RenderedChart.env(RenderedChart.container(deployment)).forEach((name, variable) -> {
                if (name.matches("(?i).*(PASSWORD|SECRET|TOKEN).*")) {
                    assertThat(at(variable, "valueFrom", "secretKeyRef", "name"))
                            .as(name)
                            .isIn(FlashSaleChart.SECRET_NAMES.values().toArray());
                    assertThat(variable).as(name).doesNotContainKey("value");
                }
            });
        }
    }

    @Test
    void rendersThePrometheusRuleFromTheRulesFile() throws Exception {
        assertThat(groups(chart.render(List.of()))).isEqualTo(rulesFileGroups(FlashSaleChart.CHART));
    }

    @Test
    void noticesARuleThatDiffersFromTheRulesFile(@TempDir Path copy) throws Exception {
        copyChart(copy);
        Path rules = copy.resolve("files/rules.yml");
        Files.writeString(rules, Files.readString(rules).replaceFirst("for: 1m", "for: 2m"));

        assertThat(groups(chart.render(copy, List.of()))).isNotEqualTo(rulesFileGroups(FlashSaleChart.CHART));
    }

    private static Object groups(RenderedChart rendered) {
        return at(rendered.find("PrometheusRule", "flashsale"), "spec", "groups");
    }

    private static Object rulesFileGroups(Path chart) throws IOException {
        return ComposeFile.yaml(Files.readString(chart.resolve("files/rules.yml")))
                .get("groups");
    }

    private static void copyChart(Path target) throws IOException {
        try (Stream<Path> files = Files.walk(FlashSaleChart.CHART)) {
            for (Path file : files.toList()) {
                Path copied =
                        target.resolve(FlashSaleChart.CHART.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copied);
                } else {
                    Files.copy(file, copied);
                }
            }
        }
    }
}
