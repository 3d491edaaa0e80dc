package io.flashsale.e2e;

import static io.flashsale.e2e.RenderedChart.at;
import static io.flashsale.e2e.RenderedChart.container;
import static io.flashsale.e2e.RenderedChart.env;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.workflows.TaskQueues;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the chart's api and worker builds run with: the compose stack's environment and ports, the
 * readiness group as the probe, a CPU autoscaler for the api, one Deployment and KEDA ScaledObject
 * per worker build, time to drain, metrics scraped as compose's Prometheus scrapes them.
 */
class HelmWorkloadsTest {

    private static FlashSaleChart chart;
    private static ComposeFile stack;

    @BeforeAll
    static void buildHelm() throws IOException {
        chart = FlashSaleChart.build();
        stack = ComposeFile.read(FlashSaleChart.ROOT.resolve("docker-compose.yml"));
    }

    @Test
    void marksTheApiReadyOnceWarmAndScalesItOnCpu() throws Exception {
        RenderedChart rendered = chart.render(FlashSaleChart.PRODUCTION);
        Map<String, Object> deployment = rendered.find("Deployment", "-api");
        Map<String, Object> api = container(deployment);
        Map<String, Object> autoscaler = rendered.find("HorizontalPodAutoscaler", "-api");

        assertThat(at(api, "readinessProbe", "httpGet", "path")).isEqualTo("/actuator/health/readiness");
        assertThat(at(api, "livenessProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
        assertThat(at(api, "ports", 0, "containerPort"))
                .hasToString(stack.environment("api").get("SERVER_PORT"));
        assertThat(RenderedChart.map(deployment.get("spec"))).doesNotContainKey("replicas");
        assertThat(at(autoscaler, "spec", "scaleTargetRef", "name")).isEqualTo(at(deployment, "metadata", "name"));
        assertThat(at(autoscaler, "spec", "metrics", 0, "resource", "name")).isEqualTo("cpu");
        assertThat((Integer) at(autoscaler, "spec", "minReplicas")).isGreaterThan(1);
        // warm is enough: a store away must not take every api out of its Service at once
        assertThat(env(api).get("MANAGEMENT_ENDPOINT_HEALTH_GROUP_READINESS_INCLUDE"))
                .containsEntry("value", "readinessState");
        assertThat(at(api, "lifecycle", "preStop", "exec", "command")).isEqualTo(List.of("sleep", "5"));
        assertThat((Integer) at(deployment, "spec", "template", "spec", "terminationGracePeriodSeconds"))
                .isGreaterThan(5 + 30);
    }

    @Test
    void runsAsTheImagesOwnUserByNumberSoTheKubeletCanVerifyItIsNotRoot() throws Exception {
        Matcher uid = Pattern.compile("useradd .*--uid (\\d+)")
                .matcher(Files.readString(FlashSaleChart.ROOT.resolve("Dockerfile")));
        assertThat(uid.find()).isTrue();
        RenderedChart rendered = chart.render(List.of());

        for (String deployment : List.of("-api", "-worker-1")) {
            Map<String, Object> container = container(rendered.find("Deployment", deployment));
            assertThat(at(container, "securityContext", "runAsUser"))
                    .as(deployment)
                    .hasToString(uid.group(1));
        }
    }

    @Test
    void namesABuildGivenAsANumberByItsDigits() throws Exception {
        RenderedChart rendered = chart.render(List.of("--set", "worker.builds[0].id=2"));

        Map<String, Object> deployment = rendered.find("Deployment", "-worker-2");
        assertThat(at(container(deployment), "image")).isEqualTo("flashsale-worker:2");
    }

    @Test
    void refusesAWorkerNameKedaCannotScale() throws Exception {
        ToolRun template = chart.template(
                FlashSaleChart.CHART,
                FlashSaleChart.SECRET_NAMES,
                List.of("--set", "worker.builds[0].id=" + "0123456789abcdef0123456789abcdef01234567"));

        assertThat(template.exitCode()).isNotZero();
        assertThat(template.output()).contains("longer than 54 characters");
    }

    @Test
    void runsTheAppsWithTheEnvironmentOfTheComposeStack() throws Exception {
        List<String> values = new ArrayList<>(FlashSaleChart.PRODUCTION);
        values.addAll(List.of("--set", "tracing.otlpEndpoint=http://jaeger:4318/v1/traces"));
        RenderedChart rendered = chart.render(values);

        Map<String, String> deployments = Map.of("api", "-api", "worker", "-worker-1");
        for (String app : deployments.keySet()) {
            Map<String, Map<String, Object>> variables =
                    env(container(rendered.find("Deployment", deployments.get(app))));

            assertThat(variables.keySet())
                    .as(app)
                    .containsAll(stack.environment(app).keySet());
            assertThat(variables.get("SPRING_PROFILES_ACTIVE")).containsEntry("value", "prod");
            assertThat(variables.get("FLASHSALE_REDIS_REPLICATION_REPLICAS")).containsEntry("value", "1");
            assertThat(variables.get("REDIS_URL")).containsEntry("value", "redis://:$(REDIS_PASSWORD)@redis:6379");
        }
    }

    @Test
    void runsOnOneRedisServerASentinelMasterOrACluster() throws Exception {
        Map<String, Map<String, Object>> single = apiEnv(List.of());
        Map<String, Map<String, Object>> sentinel = apiEnv(FlashSaleChart.PRODUCTION);
        Map<String, Map<String, Object>> cluster =
                apiEnv(List.of("--set", "redis.cluster.nodes={redis-0:6379,redis-1:6379}"));
        ToolRun both = chart.template(
                FlashSaleChart.CHART,
                FlashSaleChart.SECRET_NAMES,
                List.of(
                        "--set",
                        "redis.cluster.nodes={a:6379},redis.sentinel.master=m,redis.sentinel.nodes={s:26379}"));

        assertThat(single).doesNotContainKeys("REDIS_SENTINEL_MASTER", "REDIS_CLUSTER_NODES");
        assertThat(sentinel)
                .containsKeys("REDIS_SENTINEL_MASTER", "REDIS_SENTINEL_NODES")
                .doesNotContainKey("REDIS_CLUSTER_NODES");
        assertThat(cluster.get("REDIS_CLUSTER_NODES")).containsEntry("value", "redis-0:6379,redis-1:6379");
        assertThat(cluster).doesNotContainKeys("REDIS_SENTINEL_MASTER", "FLASHSALE_REDIS_REPLICATION_REPLICAS");
        assertThat(both.exitCode()).isNotZero();
        assertThat(both.output()).contains("set sentinel.master or cluster.nodes, not both");
    }

    @Test
    void runsTwoWorkerBuildsSideBySideEachScaledOnTheBacklogOfItsVersion() throws Exception {
        RenderedChart rendered = chart.render(List.of("--set", "worker.builds[0].id=a,worker.builds[1].id=b"));

        for (String build : List.of("a", "b")) {
            Map<String, Object> deployment = rendered.find("Deployment", "-worker-" + build);
            Map<String, Object> scaler = rendered.find("ScaledObject", "-worker-" + build);
            Map<String, Object> trigger = RenderedChart.map(at(scaler, "spec", "triggers", 0, "metadata"));

            assertThat(at(deployment, "spec", "template", "metadata", "labels", "worker-build-id"))
                    .isEqualTo(build);
            assertThat(at(deployment, "spec", "selector", "matchLabels", "worker-build-id"))
                    .isEqualTo(build);
            assertThat(env(container(deployment)).get("FLASHSALE_WORKER_BUILD_ID"))
                    .containsEntry("value", build);
            assertThat(at(container(deployment), "image")).isEqualTo("flashsale-worker:" + build);
            assertThat(at(scaler, "spec", "scaleTargetRef", "name")).isEqualTo(at(deployment, "metadata", "name"));
            assertThat(at(scaler, "spec", "triggers", 0, "type")).isEqualTo("temporal");
            assertThat(trigger)
                    .containsEntry("taskQueue", TaskQueues.PURCHASE)
                    .containsEntry("workerDeploymentName", defaultDeploymentName())
                    .containsEntry("workerDeploymentBuildId", build);
            assertThat(at(
                            rendered.find("PodDisruptionBudget", "-worker-" + build),
                            "spec",
                            "selector",
                            "matchLabels",
                            "worker-build-id"))
                    .isEqualTo(build);
        }
    }

    @Test
    void refusesABuildIdThatCannotNameAKubernetesObject() throws Exception {
        ToolRun template = chart.template(
                FlashSaleChart.CHART, FlashSaleChart.SECRET_NAMES, List.of("--set", "worker.builds[0].id=Build_1"));

        assertThat(template.exitCode()).isNotZero();
        assertThat(template.output()).contains("build id \"Build_1\" must be lower-case letters");
    }

    @Test
    void givesTheWorkerMoreTimeToStopThanItsDrainTakes() throws Exception {
        Map<String, Object> deployment = chart.render(List.of()).find("Deployment", "-worker-1");
        Duration grace = Duration.ofSeconds(
                (Integer) at(deployment, "spec", "template", "spec", "terminationGracePeriodSeconds"));
        Map<String, Object> worker = workerApplication();
        // the drain runs within one shutdown phase, the web server's graceful stop in the next
        Duration drain = Duration.parse("PT" + at(worker, "flashsale", "worker", "drain-timeout"))
                .plus(Duration.parse("PT" + at(worker, "spring", "lifecycle", "timeout-per-shutdown-phase")));

        assertThat(grace).isGreaterThan(drain);
        assertThat(grace)
                .isEqualTo(Duration.parse("PT" + stack.service("worker").get("stop_grace_period")));
    }

    @Test
    void scrapesTheApiWithAnAdminTokenAndTheWorkerWithout() throws Exception {
        Map<String, Object> monitor = chart.render(List.of()).find("ServiceMonitor", "flashsale");
        Map<String, Object> api = RenderedChart.map(at(monitor, "spec", "endpoints", 0));
        Map<String, Object> worker = RenderedChart.map(at(monitor, "spec", "endpoints", 1));

        assertThat(at(monitor, "spec", "jobLabel")).isEqualTo("app.kubernetes.io/component");
        assertThat(api).containsEntry("port", "http").containsEntry("path", "/actuator/prometheus");
        assertThat(at(api, "authorization", "type")).isEqualTo("Bearer");
        assertThat(at(api, "authorization", "credentials", "name"))
                .isEqualTo(FlashSaleChart.SECRET_NAMES.get("secrets.metricsToken.name"));
        assertThat(worker)
                .containsEntry("port", "actuator")
                .containsEntry("path", "/actuator/prometheus")
                .doesNotContainKey("authorization");
    }

    @Test
    void leavesTheJvmFlagsToTheImage() throws Exception {
        // the Dockerfile's JAVA_OPTS, which ComposeFileTest reads
        for (Map<String, Object> deployment :
                chart.render(FlashSaleChart.PRODUCTION).ofKind("Deployment")) {
            assertThat(env(container(deployment)).keySet()).noneMatch(name -> name.startsWith("JAVA_"));
            assertThat(container(deployment)).doesNotContainKeys("command", "args");
        }
    }

    private static Map<String, Map<String, Object>> apiEnv(List<String> values) throws Exception {
        return env(container(chart.render(values).find("Deployment", "-api")));
    }

    /** FLASHSALE_WORKER_DEPLOYMENT's default in the worker's application.yaml. */
    private static String defaultDeploymentName() throws IOException {
        String placeholder = "" + at(workerApplication(), "flashsale", "worker", "deployment", "name");
        return placeholder.replaceAll("^\\$\\{FLASHSALE_WORKER_DEPLOYMENT:(.*)}$", "$1");
    }

    private static Map<String, Object> workerApplication() throws IOException {
        return ComposeFile.yaml(
                Files.readString(FlashSaleChart.ROOT.resolve("worker/src/main/resources/application.yaml")));
    }
}
