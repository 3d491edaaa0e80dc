package io.flashsale.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The system as separate processes, started from the executable jars of a checkout on free ports:
 * the dev Temporal server, one worker, the api (all with the JVM flags {@code bin/flashsale up}
 * uses: none), on private stores. {@link #close()} stops exactly these processes.
 */
final class Stack implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final Path root;
    private final Path logs;
    private final Stores stores;
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final String jwtSecret = "bench-" + java.util.UUID.randomUUID() + java.util.UUID.randomUUID();
    private final HttpClient http = HttpClient.newHttpClient();
    private int temporalPort;
    private int apiPort;

    private Stack(Path root, Path logs, Stores stores) {
        this.root = root;
        this.logs = logs;
        this.stores = stores;
    }

    /** Starts Temporal, the worker and the api; {@code apiJvmFlags} e.g. a flight recording. */
    static Stack start(Path root, Path logs, Stores stores, List<String> apiJvmFlags) throws Exception {
        Files.createDirectories(logs);
        Stack stack = new Stack(root, logs, stores);
        try {
            stack.temporalPort = freePort();
            stack.launch("temporal", jar("devtemporal", root), List.of(), List.of("" + stack.temporalPort), Map.of());
            stack.awaitLog("temporal", "Temporal dev server ready");
            int workerPort = freePort();
            stack.launch("worker", jar("worker", root), List.of(), List.of(), Map.of("WORKER_PORT", "" + workerPort));
            stack.awaitHealthy("worker", workerPort);
            stack.apiPort = freePort();
            stack.launch("api", jar("api", root), apiJvmFlags, List.of(), Map.of("API_PORT", "" + stack.apiPort));
            stack.awaitHealthy("api", stack.apiPort);
            return stack;
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    URI api() {
        return URI.create("http://127.0.0.1:" + apiPort);
    }

    Path log(String name) {
        return logs.resolve(name + ".log");
    }

    String temporalAddress() {
        return "127.0.0.1:" + temporalPort;
    }

    /** Another JVM from this bench jar (e.g. the trivial workflow's worker), same flags as the worker. */
    Process launchBenchProcess(String name, List<String> args) throws IOException {
        String classpath = System.getProperty("java.class.path");
        List<String> command = new ArrayList<>(List.of(java(), "-cp", classpath, Bench.class.getName()));
        command.addAll(args);
        return launch(name, command, Map.of());
    }

    private void launch(String name, Path jar, List<String> jvmFlags, List<String> args, Map<String, String> env)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(jvmFlags);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        launch(name, command, env);
    }

    private Process launch(String name, List<String> command, Map<String, String> extra) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(logs.resolve(name + ".log").toFile());
        Map<String, String> env = new HashMap<>(environment());
        env.putAll(extra);
        builder.environment().putAll(env);
        Process process = builder.start();
        processes.put(name, process);
        return process;
    }

    /** The api's token key for this run (random: the api refuses the documented dev secret). */
    Tokens tokens() {
        return new Tokens(jwtSecret);
    }

    /**
     * The stores, Temporal and a random JWT secret. All load comes from one address (127.0.0.1), so
     * the api's per-address rate limit is switched off (capacity 0); the per-user limit stays.
     */
    private Map<String, String> environment() {
        return Map.of(
                "FLASHSALE_JWT_SECRET", jwtSecret,
                "FLASHSALE_RATE_LIMIT_ADDRESS_CAPACITY", "0",
                "MYSQL_URL", stores.jdbcUrl(),
                "MYSQL_USER", stores.user(),
                "MYSQL_PASSWORD", stores.password(),
                "REDIS_URL", stores.redisUrl(),
                "FLASHSALE_REDIS_PREFIX", stores.redisPrefix(),
                "TEMPORAL_ADDRESS", "127.0.0.1:" + temporalPort,
                "TEMPORAL_NAMESPACE", "default");
    }

    private void awaitLog(String name, String marker) throws Exception {
        await(name, () -> Files.readString(logs.resolve(name + ".log")).contains(marker));
    }

    private void awaitHealthy(String name, int port) throws Exception {
        URI health = URI.create("http://127.0.0.1:" + port + "/actuator/health");
        await(name, () -> {
            try {
                HttpResponse<String> r =
                        http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString());
                return r.statusCode() == 200 && r.body().contains("\"UP\"");
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    interface Check {
        boolean ok() throws Exception;
    }

    private void await(String name, Check check) throws Exception {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!check.ok()) {
            if (!processes.get(name).isAlive()) {
                throw new IllegalStateException(name + " exited; see " + logs.resolve(name + ".log"));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " not ready within " + READY_TIMEOUT);
            }
            Thread.sleep(250);
        }
    }

    static Path jar(String module, Path root) throws IOException {
        try (DirectoryStream<Path> jars =
                Files.newDirectoryStream(root.resolve(module).resolve("target"), module + "-*-exec.jar")) {
            for (Path jar : jars) {
                return jar;
            }
        } catch (java.nio.file.NoSuchFileException missing) {
            // reported below
        }
        throw new IllegalStateException(
                "no " + module + "/target/" + module + "-*-exec.jar; build first (./mvnw -DskipTests install)");
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Stops the processes in reverse start order: TERM, then KILL after 30 s. */
    @Override
    public void close() {
        List<String> names = new ArrayList<>(processes.keySet());
        java.util.Collections.reverse(names);
        for (String name : names) {
            Process process = processes.get(name);
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        processes.clear();
    }
}
