package io.flashsale.launcher.local;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.temporal.GoTool;
import io.flashsale.testkit.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** {@code up --observe}: Prometheus with compose's configuration and {@link #RULES}, and Jaeger, which gets every span. */
final class Observability {

    /** The alert rules, in the Helm chart: Helm reads only files inside a chart. */
    static final String RULES = "deploy/helm/flashsale/files/rules.yml";

    private static final List<String> JAEGER_PORTS =
            List.of("JAEGER_UI_PORT", "JAEGER_OTLP_PORT", "JAEGER_QUERY_GRPC_PORT");

    private final LocalConfig config;
    private final RunFolder run;
    private Path jaeger;

    Observability(LocalConfig config) {
        this.config = config;
        this.run = config.run();
    }

    /** Before anything starts: the ports free and Jaeger there (a failed build leaves nothing half-started). */
    void check(boolean temporalStarts) {
        if (run.pid(RunFolder.PROMETHEUS).isEmpty()) {
            config.refuseTaken("PROMETHEUS_PORT", "Prometheus");
            if (temporalStarts) {
                config.refuseTaken("TEMPORAL_METRICS_PORT", "the dev server's metrics");
            }
        }
        if (run.pid(RunFolder.JAEGER).isEmpty()) {
            JAEGER_PORTS.forEach(variable -> config.refuseTaken(variable, "Jaeger"));
            jaeger = GoTool.jaeger(config.root(), System.err::println)
                    .orElseThrow(() -> new IllegalStateException("cannot build Jaeger (see above)"));
        }
    }

    void startPrometheus(List<String> temporalTargets) throws Exception {
        if (run.alreadyRunning(RunFolder.PROMETHEUS)) {
            return;
        }
        Path dir = Files.createDirectories(run.path().resolve("prometheus").resolve("data"))
                .getParent();
        Path token = dir.resolve("api-token");
        Files.deleteIfExists(token);
        Files.createFile(token, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Instant expires = Instant.now().plus(Duration.ofDays(365));
        Files.writeString(token, Tokens.fromEnvironment().sign(Tokens.claims("prometheus", "admin", expires)));
        Path yml = Files.writeString(dir.resolve("prometheus.yml"), prometheusConfig(dir, temporalTargets));
        String listen = "--web.listen-address=127.0.0.1:" + config.integer("PROMETHEUS_PORT");
        String data = "--storage.tsdb.path=" + dir.resolve("data");
        run.start(RunFolder.PROMETHEUS, List.of("prometheus", "--config.file=" + yml, data, listen));
        await(RunFolder.PROMETHEUS, "http://127.0.0.1:" + config.integer("PROMETHEUS_PORT") + "/-/ready");
    }

    /** compose's prometheus.yml with this machine's addresses, paths and interval. */
    String prometheusConfig(Path dir, List<String> temporalTargets) throws IOException {
        String targets = temporalTargets.stream().map(t -> "\"" + t + "\"").collect(Collectors.joining(","));
        String yaml = Files.readString(config.root().resolve("deploy/prometheus/prometheus.yml"))
                .replaceAll(
                        "(?m)^( +)(scrape|evaluation)_interval: .*",
                        "$1$2_interval: " + config.get("PROMETHEUS_INTERVAL"))
                .replace(
                        "/etc/prometheus/rules.yml",
                        config.root().resolve(RULES).toString())
                .replace("/prometheus/api-token", dir.resolve("api-token").toString())
                .replace("\"api:8080\"", "\"127.0.0.1:" + config.integer("API_PORT") + "\"")
                .replace("\"worker:8081\"", "\"127.0.0.1:" + config.integer("WORKER_PORT") + "\"")
                .replace("[\"temporal:8000\"]", "[" + targets + "]");
        for (String left : List.of("api:8080", "worker:8081", "temporal:8000", "/etc/prometheus/")) {
            if (yaml.contains(left)) {
                throw new IllegalStateException(
                        "deploy/prometheus/prometheus.yml changed; the local Prometheus no longer fits it");
            }
        }
        return yaml;
    }

    /** Jaeger, and the apps' spans to it, every one sampled unless configured otherwise. */
    void startJaeger() throws Exception {
        Map<String, String> env = config.environment();
        env.putIfAbsent(
                "MANAGEMENT_OTLP_TRACING_ENDPOINT",
                "http://127.0.0.1:" + config.integer("JAEGER_OTLP_PORT") + "/v1/traces");
        env.putIfAbsent("MANAGEMENT_TRACING_SAMPLING_PROBABILITY", "1.0");
        if (run.alreadyRunning(RunFolder.JAEGER)) {
            return;
        }
        Path yaml = Files.createDirectories(run.path().resolve("jaeger")).resolve("config.yaml");
        Files.copy(config.root().resolve("deploy/jaeger/config.yaml"), yaml, StandardCopyOption.REPLACE_EXISTING);
        Map<String, String> ports = JAEGER_PORTS.stream().collect(Collectors.toMap(variable -> variable, config::get));
        run.start(RunFolder.JAEGER, List.of(jaeger.toString(), "--config", yaml.toString()), ports);
        await(RunFolder.JAEGER, "http://127.0.0.1:" + config.integer("JAEGER_UI_PORT") + "/api/services");
    }

    String banner() {
        return "  Prometheus      http://127.0.0.1:" + config.integer("PROMETHEUS_PORT")
                + "   (alerts: /alerts; rules: "
                + RULES + ")\n  Jaeger          http://127.0.0.1:" + config.integer("JAEGER_UI_PORT")
                + "   (query API /api/traces?service=flashsale-api; the UI needs JAEGER_UI_ASSETS)\n";
    }

    private void await(String name, String url) throws InterruptedException {
        run.await(name, Duration.ofSeconds(60), () -> Await.ok(url, null));
    }
}
