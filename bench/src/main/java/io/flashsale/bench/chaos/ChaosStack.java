package io.flashsale.bench.chaos;

import io.flashsale.bench.Processes;
import io.flashsale.bench.Stack;
import io.flashsale.bench.Stores;
import io.flashsale.bench.TemporalClusterProcesses;
import io.flashsale.bench.TemporalProcess;
import io.flashsale.bench.TemporalService;
import io.flashsale.devredis.RedisServer;
import io.flashsale.devtemporal.DevServer;
import io.flashsale.testkit.FreePorts;
import io.flashsale.testkit.Tokens;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The system a chaos run breaks: a Redis of its own (append-only file, everysec), a MariaDB of its
 * own, the Temporal dev server on a SQLite file, two workers and two apis as processes. Each of
 * them can be SIGKILLed and started again by name ({@link #TARGETS}), always by its own pid. The
 * apps reach Redis, MariaDB and Temporal through Toxiproxy, one proxy a store ({@link #LINKS}), so
 * the network between them can be slowed, stalled or cut ({@link #breakLink}); the checker reads
 * the stores directly.
 */
final class ChaosStack implements AutoCloseable {

    /** What the nemesis may kill on the dev server. */
    static final List<String> TARGETS =
            List.of("api-1", "api-2", "worker-1", "worker-2", "temporal", "redis", "mariadb");

    /** What the nemesis may kill on the Temporal cluster: its frontend or a history host instead. */
    static final List<String> CLUSTER_TARGETS = List.of(
            "api-1",
            "api-2",
            "worker-1",
            "worker-2",
            "temporal-frontend",
            "temporal-history-1",
            "temporal-history-2",
            "redis",
            "mariadb");

    private static final String CLUSTER_NODE = "temporal-";

    /** The proxied connections from the apps to a store. */
    static final List<String> LINKS = List.of("to-redis", "to-mysql", "to-temporal");

    /** What the nemesis may do to a link. */
    static final List<String> NETWORK_FAULTS = List.of("latency", "timeout", "slow_close", "cut");

    /**
     * How long a started app may take to report UP: a worker is UP only once it polls Temporal,
     * which may itself be restarting, on 2 cores shared by the whole stack.
     */
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

    private final Path root;
    private final Processes processes;
    private final String jwtSecret = "chaos-" + UUID.randomUUID() + UUID.randomUUID();
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, String> currentName = new HashMap<>();
    private RedisServer redis;
    private MariaDb mariadb;
    private Toxiproxy toxiproxy;
    private Stores stores;
    private Stores appStores;
    private String temporalProxy;
    private TemporalService temporal;

    private ChaosStack(Path root, Path logs) throws IOException {
        this.root = root;
        this.processes = new Processes(logs, READY_TIMEOUT);
    }

    /** What the nemesis may kill in a stack on the cluster or on the dev server. */
    static List<String> targets(boolean cluster) {
        return cluster ? CLUSTER_TARGETS : TARGETS;
    }

    /**
     * Starts the stack, with the production-like Temporal cluster (PostgreSQL, two history hosts;
     * databases {@code temporal_chaos<id>}) when {@code cluster}, else the dev server.
     */
    static ChaosStack start(Path root, Path logs, boolean cluster) throws Exception {
        ChaosStack stack = new ChaosStack(root, logs);
        try {
            stack.redis = RedisServer.start(logs.resolve("redis"), "everysec");
            Stores fresh = Stores.fresh();
            stack.mariadb = MariaDb.start(stack.processes, logs.resolve("mariadb"), fresh.user(), fresh.password());
            stack.stores = fresh.onRedis(stack.redis.url()).onMysql(stack.mariadb.url());
            stack.temporal =
                    cluster ? startCluster(stack.processes, root, logs) : startDevServer(stack.processes, root, logs);
            stack.proxyTheStores(root);
            for (String app : List.of("worker-1", "worker-2", "api-1", "api-2")) {
                stack.ports.put(app, FreePorts.next());
                stack.launch(app);
            }
            for (String app : stack.ports.keySet()) {
                stack.awaitHealthy(app);
            }
            return stack;
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    /** The apis' base addresses. */
    List<URI> apis() {
        return List.of(uri("api-1"), uri("api-2"));
    }

    Stores stores() {
        return stores;
    }

    Tokens tokens() {
        return new Tokens(jwtSecret);
    }

    private static TemporalService startDevServer(Processes processes, Path root, Path logs) throws Exception {
        DevServer.Options options = DevServer.Options.onPort(FreePorts.next())
                .withDbFile(logs.toAbsolutePath().resolve("temporal.db"));
        Files.deleteIfExists(options.dbFile());
        return TemporalProcess.start(processes, root, options, DevServer.Kind.CLI, System.out::println);
    }

    private static TemporalService startCluster(Processes processes, Path root, Path logs) throws Exception {
        String name = "chaos" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        return TemporalClusterProcesses.start(
                processes, root, name, logs.toAbsolutePath().resolve("temporal-cluster"), System.out::println);
    }

    private void proxyTheStores(Path root) throws Exception {
        toxiproxy = Toxiproxy.start(processes, root);
        int redisPort = toxiproxy.proxy("to-redis", URI.create(redis.url()).getAuthority());
        int mysqlPort = toxiproxy.proxy("to-mysql", "127.0.0.1:" + mariadb.port());
        int temporalPort = toxiproxy.proxy("to-temporal", temporal.address());
        appStores = stores.onRedis("redis://127.0.0.1:" + redisPort).onMysql("jdbc:mysql://127.0.0.1:" + mysqlPort);
        temporalProxy = "127.0.0.1:" + temporalPort;
    }

    /** The pid of {@code target} now, or -1 when it is not running. */
    long pid(String target) {
        return switch (target) {
            case "redis" -> redis.pid();
            case "temporal" -> alive(((TemporalProcess) temporal).process());
            case "mariadb" -> mariadb.pid();
            default -> target.startsWith(CLUSTER_NODE)
                    ? alive(cluster().process(node(target)))
                    : alive(processes.get(currentName.get(target)));
        };
    }

    private static long alive(Process process) {
        return process.isAlive() ? process.pid() : -1;
    }

    private TemporalClusterProcesses cluster() {
        return (TemporalClusterProcesses) temporal;
    }

    /** The cluster's name of the node {@code target} names ({@code temporal-history-1}: {@code history-1}). */
    private static String node(String target) {
        return target.substring(CLUSTER_NODE.length());
    }

    /** SIGKILL of {@code target}, no shutdown of any kind; returns the pid it killed. */
    long kill(String target) throws Exception {
        long pid = pid(target);
        switch (target) {
            case "redis" -> redis.kill();
            case "temporal" -> ((TemporalProcess) temporal).kill();
            case "mariadb" -> mariadb.kill();
            default -> {
                if (target.startsWith(CLUSTER_NODE)) {
                    cluster().kill(node(target));
                    return pid;
                }
                Process process = processes.get(currentName.get(target));
                process.destroyForcibly();
                process.waitFor();
            }
        }
        return pid;
    }

    /** Starts {@code target} again (same port, same files) and waits until it answers. */
    void restart(String target) throws Exception {
        switch (target) {
            case "redis" -> redis.restart();
            case "temporal" -> ((TemporalProcess) temporal).restart();
            case "mariadb" -> mariadb.restart();
            default -> {
                if (target.startsWith(CLUSTER_NODE)) {
                    cluster().restart(node(target));
                    return;
                }
                launch(target);
                awaitHealthy(target);
            }
        }
    }

    /**
     * Puts {@code fault} ({@link #NETWORK_FAULTS}) on {@code link}: replies 400 ± 200 ms late; replies
     * stalled and the connection closed after 2 s; every close held back 3 s; or the link cut (its
     * connections closed, new ones refused). Returns what Toxiproxy then reports of the link.
     */
    String breakLink(String link, String fault) throws Exception {
        switch (fault) {
            case "latency" -> toxiproxy.toxic(link, "latency", Map.of("latency", 400, "jitter", 200));
            case "timeout" -> toxiproxy.toxic(link, "timeout", Map.of("timeout", 2000));
            case "slow_close" -> toxiproxy.toxic(link, "slow_close", Map.of("delay", 3000));
            case "cut" -> toxiproxy.enabled(link, false);
            default -> throw new IllegalArgumentException("no network fault " + fault);
        }
        return toxiproxy.state(link);
    }

    /** Takes {@code fault} off {@code link} again; returns what Toxiproxy then reports of it. */
    String healLink(String link, String fault) throws Exception {
        if (fault.equals("cut")) {
            toxiproxy.enabled(link, true);
        } else {
            toxiproxy.removeToxic(link, fault);
        }
        return toxiproxy.state(link);
    }

    private void launch(String app) throws IOException {
        String module = app.substring(0, app.indexOf('-'));
        int starts = currentName.containsKey(app)
                ? Integer.parseInt(currentName.get(app).replaceAll(".*\\.", ""))
                : 0;
        String name = app + "." + (starts + 1);
        currentName.put(app, name);
        Map<String, String> env = environment();
        env.put(module.equals("api") ? "API_PORT" : "WORKER_PORT", "" + ports.get(app));
        List<String> command = new ArrayList<>(List.of(
                Processes.java(),
                "-Xmx384m",
                "-XX:TieredStopAtLevel=1",
                "-jar",
                Stack.jar(module, root).toString()));
        processes.start(name, command, env);
    }

    private void awaitHealthy(String app) throws Exception {
        processes.awaitHealthy(currentName.get(app), ports.get(app));
    }

    private URI uri(String app) {
        return URI.create("http://127.0.0.1:" + ports.get(app));
    }

    /**
     * Every app's settings: a private stack's ({@link Stack#environment}) with the stores behind
     * their proxies, and no warm-up, so a restarted api answers at once.
     */
    private Map<String, String> environment() {
        Map<String, String> env = Stack.environment(appStores, temporalProxy, jwtSecret);
        env.put("FLASHSALE_WARMUP_REQUESTS", "0");
        return env;
    }

    @Override
    public void close() throws Exception {
        // every store is the run's own: its files stay with the logs; the cluster's databases go
        processes.close();
        if (temporal instanceof TemporalClusterProcesses cluster) {
            cluster.cluster().dropDatabases();
        }
        if (redis != null) {
            redis.close();
        }
    }
}
