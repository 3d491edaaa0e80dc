package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.Processes;
import io.flashsale.launcher.temporal.GoTool;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.FreePorts;
import io.flashsale.testkit.Tokens;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code bin/flashsale up --observe} as an operator runs it, on ports, stores and a run directory
 * of its own: Prometheus scrapes the api, the worker and the dev server with the project's rules.
 * After a small sale (bought out, paid, cancelled, expired, paid too late, closed and archived)
 * every series the alert rules and the Grafana dashboard read is in Prometheus; with the Temporal
 * server stopped (SIGSTOP) while buyers are admitted, the relay cannot start their workflows,
 * FlashSaleAdmissionsWaitForWorkflow fires and the series born of the outage appear. After both,
 * every dashboard expression gives a series. Jaeger receives the spans of the api and the worker:
 * one purchase is one trace, from the HTTP request through the admission script and the workflow
 * start on the api to the workflow, its activities and their SQL on the worker. The tests run in
 * order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ObserveCommandIT {

    private static final Path ROOT = Path.of(System.getProperty("flashsale.root", ".."));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /**
     * Series born of a failure: Temporal calls that failed, a relay pass that failed on a sale.
     * They are checked after the outage of the second test, not after the sale of the first.
     */
    private static final Set<String> BORN_OF_AN_OUTAGE = Set.of(
            "temporal_request_failure_total",
            "temporal_long_request_failure_total",
            "flashsale_relay_sale_errors_total");

    /** Purchase workflows that failed: none does, in a sale or in an outage; only read by the dashboard. */
    private static final Set<String> NEVER_IN_A_HEALTHY_SYSTEM = Set.of("temporal_workflow_failed_total");

    private static Map<String, String> environment;
    private static PrivateStores stores;
    private static Path run;
    private static ApiClient api;
    private static Tokens tokens;
    private static URI prometheus;
    private static JaegerQuery jaeger;

    @BeforeAll
    static void up() throws Exception {
        stores = PrivateStores.fresh();
        run = Path.of("target", "observe-" + stores.redisPrefix()).toAbsolutePath();
        String secret = "observe-" + UUID.randomUUID() + UUID.randomUUID();
        int apiPort = FreePorts.next();
        int prometheusPort = FreePorts.next();
        int jaegerPort = FreePorts.next();
        environment = new HashMap<>(stores.environment("127.0.0.1:" + FreePorts.next()));
        environment.put("FLASHSALE_JWT_SECRET", secret);
        environment.putAll(Map.of(
                "FLASHSALE_RUN_DIR",
                run.toString(),
                "API_PORT",
                "" + apiPort,
                "WORKER_PORT",
                "" + FreePorts.next(),
                "TEMPORAL_UI_PORT",
                "" + FreePorts.next(),
                "TEMPORAL_METRICS_PORT",
                "" + FreePorts.next(),
                "PROMETHEUS_PORT",
                "" + prometheusPort,
                "PROMETHEUS_INTERVAL",
                "2s",
                "FLASHSALE_WARMUP_REQUESTS",
                "0",
                "FLASHSALE_ARCHIVE_AFTER",
                "1s",
                "FLASHSALE_ARCHIVE_INTERVAL",
                "2s"));
        environment.putAll(Map.of(
                "JAEGER_UI_PORT",
                "" + jaegerPort,
                "JAEGER_OTLP_PORT",
                "" + FreePorts.next(),
                "JAEGER_QUERY_GRPC_PORT",
                "" + FreePorts.next()));
        // a loaded machine (the suite's other processes) starts the apps slowly
        environment.put("HEALTH_TIMEOUT", "300");
        // JSON log lines, as a log shipper reads them
        environment.put("LOG_FORMAT", "ecs");
        // the sale needs each command's outcome (ann paid, bob cancelled), not the 202 the api gives
        // when one takes longer than its 3 s; on a host that took 40 % of the box, ann's took longer
        environment.put("FLASHSALE_COMMAND_ANSWER_WITHIN", "30s");
        api = new ApiClient(URI.create("http://127.0.0.1:" + apiPort));
        tokens = new Tokens(secret);
        prometheus = URI.create("http://127.0.0.1:" + prometheusPort);
        jaeger = new JaegerQuery(URI.create("http://127.0.0.1:" + jaegerPort));

        // built first (8 minutes with empty Go caches): up's own wait is for the stack, not a build
        assertThat(GoTool.jaeger(ROOT, System.err::println)).isPresent();
        Launcher.Run up = Launcher.run(Duration.ofMinutes(6), environment, "", "up", "--observe");

        assertThat(up.exitCode()).as(up.output()).isZero();
        assertThat(up.output()).contains("Prometheus      " + prometheus);
        assertThat(up.output()).contains("Jaeger          http://127.0.0.1:" + jaegerPort);
    }

    @AfterAll
    static void down() throws Exception {
        if (environment != null) {
            Launcher.Run down = Launcher.run(Duration.ofMinutes(3), environment, "", "down");
            assertThat(down.exitCode()).as(down.output()).isZero();
            assertThat(down.output()).contains("stopped prometheus", "stopped jaeger");
            stores.drop();
        }
    }

    @Test
    @Order(1)
    void afterASaleEverySeriesTheRulesAndTheDashboardReadIsInPrometheus() throws Exception {
        String sale = "obs" + UUID.randomUUID().toString().substring(0, 8);
        // cid's unit expires after the pay timeout; ann pays within it, which took more than 3 s
        // once while the other test JVMs started systems of their own
        api.createSale(tokens.admin(), sale, 3, Duration.ofSeconds(10)).expect("create sale", 201);
        for (String buyer : List.of("ann", "bob", "cid", "dan", "eve")) {
            api.purchase(tokens.buyer(buyer), sale, "key-" + buyer).expect("buy " + buyer, 202, 409);
        }
        String ann = PurchaseRequest.purchaseId(sale, "ann");
        String cid = PurchaseRequest.purchaseId(sale, "cid");
        await().atMost(Duration.ofSeconds(60)).until(() -> "PENDING_PAYMENT".equals(status("ann", ann)));
        api.pay(tokens.payments(), ann, "pay-ann").expect("pay ann", 200);
        api.cancel(tokens.buyer("bob"), PurchaseRequest.purchaseId(sale, "bob")).expect("cancel bob", 200, 202);
        await().atMost(Duration.ofSeconds(60)).until(() -> "EXPIRED".equals(status("cid", cid)));
        api.pay(tokens.payments(), cid, "pay-cid-late").expect("late payment, refund needed", 409);
        api.closeSale(tokens.admin(), sale).expect("close", 200);

        Set<String> wanted = seriesReadByTheRulesAndTheDashboard();
        wanted.removeAll(BORN_OF_AN_OUTAGE);
        wanted.removeAll(NEVER_IN_A_HEALTHY_SYSTEM);
        await().atMost(Duration.ofSeconds(90))
                .untilAsserted(() -> assertThat(present(wanted)).containsExactlyInAnyOrderElementsOf(wanted));
        assertThat(query("up == 1").size())
                .as("api, worker and temporal scraped")
                .isEqualTo(3);
    }

    @Test
    @Order(2)
    void theRelayAlertFiresWhileTemporalIsStoppedThenEveryPanelHasData() throws Exception {
        String sale = "held" + UUID.randomUUID().toString().substring(0, 8);
        api.createSale(tokens.admin(), sale, 10, Duration.ofMinutes(5)).expect("create sale", 201);
        long temporal =
                Long.parseLong(Files.readAllLines(run.resolve("temporal.pid")).get(0));
        signal("STOP", temporal);
        try {
            for (String buyer : List.of("ann", "bob", "cid")) {
                api.purchase(tokens.buyer(buyer), sale, "key-" + buyer).expect("buy " + buyer, 202);
            }

            await().atMost(Duration.ofMinutes(5))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(firing()).contains("FlashSaleAdmissionsWaitForWorkflow " + sale));
        } finally {
            signal("CONT", temporal);
        }
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(present(BORN_OF_AN_OUTAGE))
                .containsExactlyInAnyOrderElementsOf(BORN_OF_AN_OUTAGE));
        String ann = PurchaseRequest.purchaseId(sale, "ann");
        await().atMost(Duration.ofSeconds(90)).until(() -> "PENDING_PAYMENT".equals(status("ann", ann)));
        assertThat(apiLog("workflow start deferred to the relay purchaseId=" + ann))
                .as("the api's warning for ann's start, in ann's request's trace")
                .singleElement()
                .satisfies(line -> assertThat(line.path("traceId").asText()).matches("[0-9a-f]{32}"));

        List<String> empty = new ArrayList<>();
        DashboardTest.expressions(ROOT).forEach((where, expression) -> {
            String filledIn = DashboardTest.withVariablesFilledIn(expression);
            if (query(filledIn).isEmpty()) {
                empty.add(where + ": " + filledIn);
            }
        });
        assertThat(empty)
                .as("dashboard queries without a series after the sale and the outage")
                .isEmpty();
    }

    @Test
    @Order(3)
    void onePurchaseIsOneTraceFromTheRequestThroughTheWorkflowToMySql() throws Exception {
        String sale = "trace" + UUID.randomUUID().toString().substring(0, 8);
        api.createSale(tokens.admin(), sale, 2, Duration.ofMinutes(5)).expect("create sale", 201);
        api.purchase(tokens.buyer("ann"), sale, "key-ann").expect("buy", 202);
        String ann = PurchaseRequest.purchaseId(sale, "ann");
        await().atMost(Duration.ofSeconds(60)).until(() -> "PENDING_PAYMENT".equals(status("ann", ann)));
        // the workflow's span ends, and is sent, when the workflow does
        api.pay(tokens.payments(), ann, "pay-" + sale).expect("pay", 200);

        // 'up --observe' samples every request; the admission script's span names the sale
        List<String> traces = await().atMost(Duration.ofSeconds(60))
                .until(() -> jaeger.traceIds("flashsale-api", "flashsale.sale", sale), ids -> !ids.isEmpty());
        assertThat(traces).as("traces of the sale's one purchase").hasSize(1);
        String trace = traces.get(0);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            List<JaegerQuery.Span> spans = jaeger.spans(trace);
            assertThat(operations(spans, "flashsale-api"))
                    .contains("http post /api/sales/{saleId}/purchases", "admit.lua", "StartWorkflow:PurchaseWorkflow");
            assertThat(operations(spans, "flashsale-worker"))
                    .contains(
                            "RunWorkflow:PurchaseWorkflow",
                            "StartActivity:ConfirmReservation",
                            "RunActivity:ConfirmReservation",
                            "StartActivity:CreateOrder",
                            "RunActivity:CreateOrder");
            assertThat(spans).as("the order's INSERT, on the worker").anySatisfy(span -> {
                assertThat(span.service()).isEqualTo("flashsale-worker");
                assertThat(span.tags().getOrDefault("jdbc.query[0]", "")).containsIgnoringCase("insert into orders");
            });
        });
        assertThat(jaeger.operations("flashsale-api"))
                .as("Prometheus' scrapes of the api are not traced")
                .noneMatch(operation -> operation.contains("/actuator"));
        System.out.printf("jaeger: trace %s of purchase %s%n", trace, ann);
    }

    /**
     * The worker and the dev server run at the back-end's niceness, the api at the launcher's: where
     * they share a machine, the buyers' answers get the cores first.
     */
    @Test
    @Order(4)
    void upRunsTheBackEndBelowTheApi() throws Exception {
        assertThat(Map.of("api", niceness("api"), "worker", niceness("worker"), "temporal", niceness("temporal")))
                .isEqualTo(Map.of(
                        "api", 0, "worker", FlashSaleStack.BACK_END_NICE, "temporal", FlashSaleStack.BACK_END_NICE));
    }

    /** The niceness of the process {@code up} started as {@code component} (its pid file). */
    private static int niceness(String component) throws Exception {
        return (int) Processes.stat(
                Long.parseLong(
                        Files.readAllLines(run.resolve(component + ".pid")).get(0)),
                19);
    }

    /** The api's JSON log lines whose message starts with {@code prefix}. */
    private static List<JsonNode> apiLog(String prefix) throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(run.resolve("logs").resolve("api.log"))) {
            if (line.startsWith("{")) {
                JsonNode entry = JSON.readTree(line);
                if (entry.path("message").asText().startsWith(prefix)) {
                    lines.add(entry);
                }
            }
        }
        return lines;
    }

    private static Set<String> operations(List<JaegerQuery.Span> spans, String service) {
        return spans.stream()
                .filter(span -> service.equals(span.service()))
                .map(JaegerQuery.Span::operation)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> seriesReadByTheRulesAndTheDashboard() throws Exception {
        Set<String> names = new TreeSet<>();
        AlertRulesTest.rulesOfEveryGroup(ROOT).forEach(rule -> names.addAll(PromQl.metricNames("" + rule.get("expr"))));
        DashboardTest.expressions(ROOT).values().forEach(expression -> names.addAll(PromQl.metricNames(expression)));
        return names;
    }

    /** Which of {@code names} Prometheus has at least one series of. */
    private static Set<String> present(Set<String> names) throws Exception {
        String selector = "count by (__name__) ({__name__=~\"" + String.join("|", names) + "\"})";
        Set<String> found = new TreeSet<>();
        query(selector)
                .forEach(series ->
                        found.add(series.path("metric").path("__name__").asText()));
        return found;
    }

    /** Each firing alert as {@code name sale}. */
    private static Set<String> firing() throws Exception {
        JsonNode alerts = get("/api/v1/alerts").path("data").path("alerts");
        Set<String> firing = new TreeSet<>();
        alerts.forEach(alert -> {
            if ("firing".equals(alert.path("state").asText())) {
                firing.add(alert.path("labels").path("alertname").asText() + " "
                        + alert.path("labels").path("sale").asText());
            }
        });
        return firing;
    }

    /** The series of an instant query (a scalar counts as one). */
    private static List<JsonNode> query(String promql) {
        try {
            JsonNode data = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                    .path("data");
            if ("scalar".equals(data.path("resultType").asText())) {
                return List.of(data.path("result"));
            }
            return java.util.stream.StreamSupport.stream(data.path("result").spliterator(), false)
                    .collect(Collectors.toList());
        } catch (Exception e) {
            throw new AssertionError("query " + promql, e);
        }
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(prometheus.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static String status(String buyer, String purchaseId) {
        return api.status(tokens.buyer(buyer), purchaseId).body().path("status").asText();
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                .inheritIO()
                .start();
        assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
    }
}
