package io.flashsale.bench;

import io.flashsale.devtemporal.DevServer;
import io.flashsale.testkit.FreePorts;
import io.flashsale.testkit.Tokens;
import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The system as separate processes on free ports: a development Temporal server ({@link
 * TemporalProcess}: the real one unless told otherwise), then one worker and the api from the
 * executable jars of a checkout (with the JVM flags {@code bin/flashsale up} uses: none), on private
 * stores. {@link #close()} stops exactly these processes.
 */
public final class Stack implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final Processes processes;
    private final Stores stores;
    private final String jwtSecret = "bench-" + java.util.UUID.randomUUID() + java.util.UUID.randomUUID();
    private TemporalService temporal;
    private int apiPort;

    private Stack(Processes processes, Stores stores) {
        this.processes = processes;
        this.stores = stores;
    }

    /**
     * Starts Temporal ({@code temporalKind}: the real dev server or the test server), the worker and
     * the api; {@code apiJvmFlags} e.g. a flight recording.
     */
    static Stack start(Path root, Path logs, Stores stores, DevServer.Kind temporalKind, List<String> apiJvmFlags)
            throws Exception {
        return start(root, logs, stores, apiJvmFlags, processes -> {
            DevServer.Options options = DevServer.Options.onPort(FreePorts.next())
                    .withUi(FreePorts.next())
                    .withDbFile(logs.toAbsolutePath().resolve("temporal.db"));
            Files.deleteIfExists(options.dbFile());
            return TemporalProcess.start(processes, root, options, temporalKind, System.out::println);
        });
    }

    /**
     * The same on the production-like Temporal cluster ({@link TemporalClusterProcesses}), with
     * databases of its own named {@code clusterName}, dropped when the stack stops.
     */
    static Stack startOnCluster(Path root, Path logs, Stores stores, String clusterName) throws Exception {
        return start(
                root,
                logs,
                stores,
                List.of(),
                processes -> TemporalClusterProcesses.start(
                        processes,
                        root,
                        clusterName,
                        logs.toAbsolutePath().resolve("temporal-cluster"),
                        System.out::println));
    }

    private interface TemporalStart {
        TemporalService start(Processes processes) throws Exception;
    }

    private static Stack start(Path root, Path logs, Stores stores, List<String> apiJvmFlags, TemporalStart temporal)
            throws Exception {
        Stack stack = new Stack(new Processes(logs, READY_TIMEOUT), stores);
        try {
            stack.temporal = temporal.start(stack.processes);
            int workerPort = FreePorts.next();
            stack.launch("worker", jar("worker", root), List.of(), List.of(), Map.of("WORKER_PORT", "" + workerPort));
            stack.processes.awaitHealthy("worker", workerPort);
            stack.apiPort = FreePorts.next();
            stack.launch("api", jar("api", root), apiJvmFlags, List.of(), Map.of("API_PORT", "" + stack.apiPort));
            stack.processes.awaitHealthy("api", stack.apiPort);
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
        return processes.log(name);
    }

    /** Waits up to {@code timeout} until the process {@code name} has logged {@code marker}. */
    void awaitLog(String name, String marker, Duration timeout) throws Exception {
        processes.awaitLog(name, marker, timeout);
    }

    String temporalAddress() {
        return temporal.address();
    }

    /** A process this stack started ("api", "worker"). */
    Process process(String name) {
        return processes.get(name);
    }

    TemporalService temporal() {
        return temporal;
    }

    /** Another JVM from this bench jar (e.g. the trivial workflow's worker), same flags as the worker. */
    Process launchBenchProcess(String name, List<String> args) throws IOException {
        String classpath = System.getProperty("java.class.path");
        List<String> command = new ArrayList<>(List.of(Processes.java(), "-cp", classpath, Bench.class.getName()));
        command.addAll(args);
        return launch(name, command, Map.of());
    }

    private void launch(String name, Path jar, List<String> jvmFlags, List<String> args, Map<String, String> env)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(Processes.java()));
        command.addAll(jvmFlags);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        launch(name, command, env);
    }

    private Process launch(String name, List<String> command, Map<String, String> extra) throws IOException {
        Map<String, String> env = new HashMap<>(environment());
        env.putAll(extra);
        return processes.start(name, command, env);
    }

    /** The api's token key for this run (random: the api refuses the documented dev secret). */
    Tokens tokens() {
        return new Tokens(jwtSecret);
    }

    private Map<String, String> environment() {
        return environment(stores, temporal.address(), jwtSecret);
    }

    /**
     * What an api or worker process of a private stack is given: the stores (a Redis Cluster when
     * they name one), Temporal and the stack's JWT secret. All load comes from one address
     * (127.0.0.1), so the api's per-address rate limit is switched off (capacity 0); the per-user
     * limit stays.
     */
    public static Map<String, String> environment(Stores stores, String temporalAddress, String jwtSecret) {
        Map<String, String> env = new HashMap<>(Map.of(
                "FLASHSALE_JWT_SECRET", jwtSecret,
                "FLASHSALE_RATE_LIMIT_ADDRESS_CAPACITY", "0",
                "MYSQL_URL", stores.jdbcUrl(),
                "MYSQL_USER", stores.user(),
                "MYSQL_PASSWORD", stores.password(),
                "REDIS_URL", stores.redisUrl(),
                "FLASHSALE_REDIS_PREFIX", stores.redisPrefix(),
                "TEMPORAL_ADDRESS", temporalAddress,
                "TEMPORAL_NAMESPACE", "default"));
        if (stores.redisClusterNodes() != null) {
            env.put("REDIS_CLUSTER_NODES", stores.redisClusterNodes());
        }
        return env;
    }

    public static Path jar(String module, Path root) throws IOException {
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

    /** Stops the processes in reverse start order: TERM, then KILL after 30 s. */
    @Override
    public void close() {
        processes.close();
        if (temporal instanceof TemporalClusterProcesses cluster) {
            try {
                cluster.cluster().dropDatabases();
            } catch (Exception e) {
                System.err.println("could not drop the databases of " + cluster + ": " + e);
            }
        }
    }
}
