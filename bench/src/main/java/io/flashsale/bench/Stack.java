package io.flashsale.bench;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.Processes;
import io.flashsale.launcher.TemporalService;
import io.flashsale.testkit.Tokens;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Temporal, one worker and the api on private stores, with a random JWT secret (the api refuses the dev one). */
public record Stack(FlashSaleStack flashSale, Tokens tokens) implements AutoCloseable {

    /** On the dev server with its Web UI, the back end at {@code backEndNice}. */
    public static Stack start(
            Path root, Path logs, PrivateStores stores, int backEndNice, Map<FlashSaleStack.App, List<String>> jvmFlags)
            throws Exception {
        var builder = FlashSaleStack.builder(root, logs).webUi().backEndNice(backEndNice);
        jvmFlags.forEach(builder::jvmFlags);
        return start(builder, stores, Map.of());
    }

    /** The stack {@code builder} describes, its apps given {@code environment} on top of the stores'. */
    static Stack start(FlashSaleStack.Builder builder, PrivateStores stores, Map<String, String> environment)
            throws Exception {
        String jwtSecret = "bench-" + UUID.randomUUID() + UUID.randomUUID();
        FlashSaleStack stack = builder.environment(temporal -> {
                    Map<String, String> env = new HashMap<>(stores.environment(temporal.address()));
                    env.put("FLASHSALE_JWT_SECRET", jwtSecret);
                    env.putAll(environment);
                    return env;
                })
                .start();
        try {
            stack.start(FlashSaleStack.App.WORKER, "worker");
            stack.start(FlashSaleStack.App.API, "api");
            return new Stack(stack, new Tokens(jwtSecret));
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    public URI api() {
        return flashSale.uri("api");
    }

    public TemporalService temporal() {
        return flashSale.temporal();
    }

    /** {@code main} in a JVM of the bench's class path and the apps' environment, once it logged {@code ready}. */
    Process launch(String name, Class<?> main, List<String> jvmFlags, String ready, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Processes.java()));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Process process = flashSale.processes().start(name, command, flashSale.environment());
        flashSale.processes().awaitLog(name, ready, Duration.ofSeconds(60));
        return process;
    }

    @Override
    public void close() throws Exception {
        flashSale.close();
    }
}
