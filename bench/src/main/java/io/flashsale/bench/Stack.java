package io.flashsale.bench;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.Processes;
import io.flashsale.launcher.TemporalService;
import io.flashsale.launcher.temporal.DevServer;
import io.flashsale.testkit.Tokens;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The stack a bench run measures ({@link FlashSaleStack}): Temporal, then one worker and the api
 * with the JVM flags {@code bin/flashsale up} uses (none), on private stores, with a random JWT
 * secret (the api refuses the documented dev secret outside the dev profile).
 */
public final class Stack implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final FlashSaleStack stack;
    private final String jwtSecret;

    private Stack(FlashSaleStack stack, String jwtSecret) {
        this.stack = stack;
        this.jwtSecret = jwtSecret;
    }

    /**
     * Starts Temporal ({@code temporalKind}: the real dev server or the test server), the worker and
     * the api; the dev server and the worker at {@code backEndNice}, as {@code bin/flashsale up} runs
     * them ({@link FlashSaleStack#BACK_END_NICE}); {@code jvmFlags} per app, e.g. a flight recording.
     */
    public static Stack start(
            Path root,
            Path logs,
            PrivateStores stores,
            DevServer.Kind temporalKind,
            int backEndNice,
            Map<FlashSaleStack.App, List<String>> jvmFlags)
            throws Exception {
        return start(
                FlashSaleStack.builder(root, logs)
                        .devServer(temporalKind)
                        .webUi()
                        .backEndNice(backEndNice),
                stores,
                jvmFlags,
                Map.of());
    }

    /** The same with {@code environment} on top of the stores' (e.g. a Sentinel topology), as {@code up} runs it. */
    static Stack start(
            Path root, Path logs, PrivateStores stores, DevServer.Kind temporalKind, Map<String, String> environment)
            throws Exception {
        return start(
                FlashSaleStack.builder(root, logs).devServer(temporalKind).backEndNice(FlashSaleStack.BACK_END_NICE),
                stores,
                Map.of(),
                environment);
    }

    /**
     * The same on the production-like Temporal cluster, with databases of its own named {@code
     * clusterName}, dropped when the stack stops.
     */
    static Stack startOnCluster(Path root, Path logs, PrivateStores stores, String clusterName) throws Exception {
        return start(FlashSaleStack.builder(root, logs).cluster(clusterName), stores, Map.of(), Map.of());
    }

    private static Stack start(
            FlashSaleStack.Builder builder,
            PrivateStores stores,
            Map<FlashSaleStack.App, List<String>> jvmFlags,
            Map<String, String> environment)
            throws Exception {
        String jwtSecret = "bench-" + UUID.randomUUID() + UUID.randomUUID();
        jvmFlags.forEach(builder::jvmFlags);
        FlashSaleStack stack = builder.readyTimeout(READY_TIMEOUT)
                .environment(temporal -> {
                    Map<String, String> env = withSecret(FlashSaleStack.environment(stores, temporal), jwtSecret);
                    env.putAll(environment);
                    return env;
                })
                .start();
        try {
            stack.start(FlashSaleStack.App.WORKER, "worker");
            stack.start(FlashSaleStack.App.API, "api");
            return new Stack(stack, jwtSecret);
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    private static Map<String, String> withSecret(Map<String, String> environment, String jwtSecret) {
        Map<String, String> env = new HashMap<>(environment);
        env.put("FLASHSALE_JWT_SECRET", jwtSecret);
        return env;
    }

    public URI api() {
        return stack.uri("api");
    }

    /** Waits up to {@code timeout} until the process {@code name} has logged {@code marker}. */
    void awaitLog(String name, String marker, Duration timeout) throws Exception {
        stack.awaitLog(name, marker, timeout);
    }

    String temporalAddress() {
        return stack.temporal().address();
    }

    /** A process this stack started ("api", "worker"). */
    Process process(String name) {
        return stack.process(name);
    }

    public TemporalService temporal() {
        return stack.temporal();
    }

    /** Another JVM from this bench jar (e.g. the trivial workflow's worker), given what the apps are given. */
    Process launchBenchProcess(String name, List<String> args) throws IOException {
        return launchBenchProcess(name, List.of(), args);
    }

    /** The same with {@code jvmFlags}, e.g. the apps' {@link FlashSaleStack#JVM_DEFAULTS}. */
    Process launchBenchProcess(String name, List<String> jvmFlags, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Processes.java()));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Bench.class.getName()));
        command.addAll(args);
        return stack.processes().start(name, command, stack.environment());
    }

    /** The api's token key for this run. */
    public Tokens tokens() {
        return new Tokens(jwtSecret);
    }

    /** Stops the processes in reverse start order: TERM, then KILL after 30 s. */
    @Override
    public void close() throws Exception {
        stack.close();
    }
}
