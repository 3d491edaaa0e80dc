package io.flashsale.launcher.local;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.testkit.DevSecrets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code bin/flashsale up} and its sibling commands run with, read from the environment once;
 * the Spring apps read the same variables themselves (MYSQL_URL, REDIS_URL, TEMPORAL_ADDRESS, ...
 * reach every process unchanged). The defaults are the ones of the README and of {@link
 * FlashSaleStack} (niceness, JVM flags).
 */
record LocalConfig(
        Path root,
        RunFolder run,
        String temporalAddress,
        boolean temporalConfigured,
        String namespace,
        int apiPort,
        int workerPort,
        int temporalUiPort,
        int prometheusPort,
        int temporalMetricsPort,
        String prometheusInterval,
        int jaegerUiPort,
        int jaegerOtlpPort,
        int jaegerQueryGrpcPort,
        int backEndNice,
        List<String> jvmFlags,
        Duration healthTimeout,
        Map<String, String> environment) {

    /** {@code environment} without its blank variables: an empty variable means its default, as in the shell's {@code ${VAR:-default}}. */
    static LocalConfig fromEnvironment(Path root, Map<String, String> environment) {
        Map<String, String> env = new HashMap<>();
        environment.forEach((name, value) -> {
            if (!value.isBlank()) {
                env.put(name, value);
            }
        });
        Path run = Path.of(env.getOrDefault(
                        "FLASHSALE_RUN_DIR", root.resolve(".run").toString()))
                .toAbsolutePath();
        // the apps get the environment as it is (an empty MYSQL_PASSWORD means no password), these with their defaults
        Map<String, String> children = new HashMap<>(environment);
        String temporal = env.getOrDefault("TEMPORAL_ADDRESS", "127.0.0.1:7233");
        String namespace = env.getOrDefault("TEMPORAL_NAMESPACE", DevServer.NAMESPACE);
        int apiPort = integer(env, "API_PORT", Integer.parseInt(LocalCommands.API_PORT));
        children.putAll(Map.of(
                "TEMPORAL_ADDRESS", temporal, "TEMPORAL_NAMESPACE", namespace, "API_PORT", Integer.toString(apiPort)));
        devSecrets(children);
        return new LocalConfig(
                root.toAbsolutePath().normalize(),
                new RunFolder(root.toAbsolutePath().normalize(), run, children),
                temporal,
                env.containsKey("TEMPORAL_ADDRESS"),
                namespace,
                apiPort,
                integer(env, "WORKER_PORT", 8081),
                integer(env, "TEMPORAL_UI_PORT", Integer.parseInt(LocalCommands.TEMPORAL_UI_PORT)),
                integer(env, "PROMETHEUS_PORT", 9090),
                integer(env, "TEMPORAL_METRICS_PORT", 8000),
                env.getOrDefault("PROMETHEUS_INTERVAL", "5s"),
                integer(env, "JAEGER_UI_PORT", 16686),
                integer(env, "JAEGER_OTLP_PORT", 4318),
                integer(env, "JAEGER_QUERY_GRPC_PORT", 16685),
                integer(env, "FLASHSALE_BACKEND_NICE", FlashSaleStack.BACK_END_NICE),
                env.containsKey("FLASHSALE_JVM_FLAGS")
                        ? List.of(env.get("FLASHSALE_JVM_FLAGS").trim().split("\\s+"))
                        : FlashSaleStack.JVM_DEFAULTS,
                Duration.ofSeconds(integer(env, "HEALTH_TIMEOUT", 120)),
                children);
    }

    /**
     * The api refuses the dev secret outside the 'dev' profile: without a secret of one's own it runs
     * as dev, and then with the dev webhook key unless one is set (else the webhook is off).
     */
    private static void devSecrets(Map<String, String> env) {
        if (blank(env, "FLASHSALE_JWT_SECRET") && blank(env, "SPRING_PROFILES_ACTIVE")) {
            env.put("SPRING_PROFILES_ACTIVE", "dev");
        }
        if ("dev".equals(env.get("SPRING_PROFILES_ACTIVE")) && blank(env, "FLASHSALE_PAYMENT_WEBHOOK_SECRET")) {
            env.put("FLASHSALE_PAYMENT_WEBHOOK_SECRET", DevSecrets.paymentWebhook());
        }
    }

    private static boolean blank(Map<String, String> env, String name) {
        return env.getOrDefault(name, "").isBlank();
    }

    String temporalHost() {
        return temporalAddress.substring(0, temporalAddress.lastIndexOf(':'));
    }

    int temporalPort() {
        return Integer.parseInt(temporalAddress.substring(temporalAddress.lastIndexOf(':') + 1));
    }

    private static int integer(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        return value == null || value.isBlank() ? fallback : Integer.parseInt(value.trim());
    }
}
