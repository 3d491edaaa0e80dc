package io.flashsale.launcher.local;

import static java.util.Map.entry;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.testkit.DevSecrets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the local commands run with, read from the environment once; a blank variable means its default.
 *
 * @param given the non-blank variables
 * @param environment what every process {@code up} starts gets: the environment with the dev defaults
 */
record LocalConfig(Path root, RunFolder run, Map<String, String> given, Map<String, String> environment) {

    /** The variables the local commands read, each with its default (README, docs/operations.md). */
    private static final Map<String, String> DEFAULTS = Map.ofEntries(
            entry("TEMPORAL_ADDRESS", "127.0.0.1:7233"),
            entry("TEMPORAL_NAMESPACE", DevServer.NAMESPACE),
            entry("API_PORT", LocalCommands.API_PORT),
            entry("WORKER_PORT", "8081"),
            entry("TEMPORAL_UI_PORT", LocalCommands.TEMPORAL_UI_PORT),
            entry("TEMPORAL_METRICS_PORT", "8000"),
            entry("PROMETHEUS_PORT", "9090"),
            entry("PROMETHEUS_INTERVAL", "5s"),
            entry("JAEGER_UI_PORT", "16686"),
            entry("JAEGER_OTLP_PORT", "4318"),
            entry("JAEGER_QUERY_GRPC_PORT", "16685"),
            entry("FLASHSALE_BACKEND_NICE", Integer.toString(FlashSaleStack.BACK_END_NICE)),
            entry("FLASHSALE_JVM_FLAGS", String.join(" ", FlashSaleStack.JVM_DEFAULTS)),
            entry("HEALTH_TIMEOUT", "120"));

    static LocalConfig fromEnvironment(Path root, Map<String, String> environment) {
        Path checkout = root.toAbsolutePath().normalize();
        Map<String, String> given = environment.entrySet().stream()
                .filter(variable -> !variable.getValue().isBlank())
                .collect(Collectors.toMap(
                        Map.Entry::getKey, variable -> variable.getValue().trim()));
        // an empty MYSQL_PASSWORD reaches the apps as no password
        Map<String, String> children = new HashMap<>(environment);
        Path run = Path.of(given.getOrDefault(
                        "FLASHSALE_RUN_DIR", checkout.resolve(".run").toString()))
                .toAbsolutePath();
        LocalConfig config = new LocalConfig(checkout, new RunFolder(checkout, run, children), given, children);
        List.of("TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE", "API_PORT")
                .forEach(name -> children.put(name, config.get(name)));
        // the api takes the dev secret only as 'dev': without a secret of its own it runs so, with the dev webhook key
        if (!given.containsKey("FLASHSALE_JWT_SECRET") && !given.containsKey("SPRING_PROFILES_ACTIVE")) {
            children.put("SPRING_PROFILES_ACTIVE", "dev");
        }
        if ("dev".equals(children.get("SPRING_PROFILES_ACTIVE"))
                && !given.containsKey("FLASHSALE_PAYMENT_WEBHOOK_SECRET")) {
            children.put("FLASHSALE_PAYMENT_WEBHOOK_SECRET", DevSecrets.paymentWebhook());
        }
        return config;
    }

    String get(String name) {
        return given.getOrDefault(name, DEFAULTS.get(name));
    }

    /** The variable {@code name} (a port, the niceness, seconds), or its default, as a number. */
    int integer(String name) {
        return Integer.parseInt(get(name));
    }

    /** Refuses when the port of {@code variable} is taken, naming {@code what} wanted it. */
    void refuseTaken(String variable, String what) {
        if (Await.listening("127.0.0.1", integer(variable))) {
            throw new IllegalStateException(
                    "port " + integer(variable) + " (" + what + ") is taken; stop what uses it or set " + variable);
        }
    }

    String temporalAddress() {
        return get("TEMPORAL_ADDRESS");
    }

    String temporalHost() {
        return temporalAddress().substring(0, temporalAddress().lastIndexOf(':'));
    }

    int temporalPort() {
        return Integer.parseInt(temporalAddress().substring(temporalAddress().lastIndexOf(':') + 1));
    }

    String namespace() {
        return get("TEMPORAL_NAMESPACE");
    }

    int backEndNice() {
        return integer("FLASHSALE_BACKEND_NICE");
    }

    List<String> jvmFlags() {
        return List.of(get("FLASHSALE_JVM_FLAGS").split("\\s+"));
    }

    Duration healthTimeout() {
        return Duration.ofSeconds(integer("HEALTH_TIMEOUT"));
    }
}
