package io.flashsale.chaos;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.TemporalClusterProcesses;
import io.flashsale.launcher.TemporalProcess;
import io.flashsale.launcher.mariadb.MariaDb;
import io.flashsale.launcher.proxy.Toxiproxy;
import io.flashsale.launcher.redis.RedisSentinels;
import io.flashsale.launcher.redis.RedisServer;
import io.flashsale.testkit.Tokens;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
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
 *
 * <p>On Redis Sentinel ({@code sentinel}) Redis is instead a master, a replica and three sentinels
 * ({@link RedisSentinels}), the apps answer an admission once the replica has it, and killing
 * {@code redis} takes the master's machine away with its disk: the sentinels promote the replica
 * and a new empty machine replaces the lost one as its replica. The apps then reach Redis directly
 * (the sentinels hand out the master's own address), so there is no {@code to-redis} link.
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

    /** The proxied connections on Redis Sentinel: the sentinels name the master's own address. */
    static final List<String> SENTINEL_LINKS = List.of("to-mysql", "to-temporal");

    /** How long the sentinels may take to promote the replica after the master's machine is lost. */
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);

    /** What the nemesis may do to a link. */
    static final List<String> NETWORK_FAULTS = Toxiproxy.FAULTS;

    /**
     * How long a started app may take to report UP: a worker is UP only once it polls Temporal,
     * which may itself be restarting, on 2 cores shared by the whole stack.
     */
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

    private final String jwtSecret = "chaos-" + UUID.randomUUID() + UUID.randomUUID();
    private FlashSaleStack apps;
    private RedisServer redis;
    private RedisSentinels sentinels;
    private MariaDb mariadb;
    private Toxiproxy toxiproxy;
    private PrivateStores stores;
    private PrivateStores appStores;
    private String temporalProxy;

    private ChaosStack() {}

    /** What the nemesis may kill in a stack on the cluster or on the dev server. */
    static List<String> targets(boolean cluster) {
        return cluster ? CLUSTER_TARGETS : TARGETS;
    }

    /** What the nemesis may break in a stack on Redis Sentinel or on one Redis server. */
    static List<String> links(boolean sentinel) {
        return sentinel ? SENTINEL_LINKS : LINKS;
    }

    /**
     * Starts the stack, with the production-like Temporal cluster (PostgreSQL, two history hosts;
     * databases {@code temporal_chaos<id>}) when {@code cluster}, else the dev server; on Redis
     * Sentinel when {@code sentinel}, else on one Redis server.
     */
    static ChaosStack start(Path root, Path logs, boolean cluster, boolean sentinel) throws Exception {
        ChaosStack stack = new ChaosStack();
        try {
            if (sentinel) {
                stack.sentinels = RedisSentinels.start(root, logs.resolve("redis"), Duration.ZERO);
            } else {
                stack.redis = RedisServer.start(logs.resolve("redis"), "everysec");
            }
            FlashSaleStack.Builder builder = FlashSaleStack.builder(root, logs)
                    .readyTimeout(READY_TIMEOUT)
                    .jvmFlags(List.of("-Xmx384m"))
                    .environment(temporal -> stack.environment());
            if (cluster) {
                builder.cluster(
                        "chaos" + UUID.randomUUID().toString().replace("-", "").substring(0, 8));
            }
            stack.apps = builder.start();
            PrivateStores fresh = PrivateStores.fresh();
            stack.mariadb =
                    MariaDb.start(stack.apps.processes(), logs.resolve("mariadb"), fresh.user(), fresh.password());
            stack.stores = fresh.onRedis(stack.redisUrl()).onMysql(stack.mariadb.url());
            stack.proxyTheStores(root);
            stack.apps.start(FlashSaleStack.App.WORKER, "worker-1", "worker-2");
            stack.apps.start(FlashSaleStack.App.API, "api-1", "api-2");
            return stack;
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    /** The apis' base addresses. */
    List<URI> apis() {
        return List.of(apps.uri("api-1"), apps.uri("api-2"));
    }

    /** The run's stores, Redis as its master now. */
    PrivateStores stores() {
        return stores.onRedis(redisUrl());
    }

    private String redisUrl() {
        return sentinels != null ? "redis://127.0.0.1:" + sentinels.masterPort() : redis.url();
    }

    Tokens tokens() {
        return new Tokens(jwtSecret);
    }

    private void proxyTheStores(Path root) throws Exception {
        toxiproxy = Toxiproxy.start(apps.processes(), root);
        int mysqlPort = toxiproxy.proxy("to-mysql", "127.0.0.1:" + mariadb.port());
        int temporalPort = toxiproxy.proxy("to-temporal", apps.temporal().address());
        appStores = stores.onMysql("jdbc:mysql://127.0.0.1:" + mysqlPort);
        if (sentinels == null) {
            int redisPort = toxiproxy.proxy("to-redis", URI.create(redis.url()).getAuthority());
            appStores = appStores.onRedis("redis://127.0.0.1:" + redisPort);
        }
        temporalProxy = "127.0.0.1:" + temporalPort;
    }

    /** The pid of {@code target} now, or -1 when it is not running. */
    long pid(String target) {
        return switch (target) {
            case "redis" -> sentinels != null ? alive(sentinels.masterPid()) : redis.pid();
            case "temporal" -> alive(((TemporalProcess) apps.temporal()).process());
            case "mariadb" -> mariadb.pid();
            default -> target.startsWith(CLUSTER_NODE)
                    ? alive(cluster().process(node(target)))
                    : alive(apps.process(target));
        };
    }

    private static long alive(Process process) {
        return process.isAlive() ? process.pid() : -1;
    }

    private static long alive(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent() ? pid : -1;
    }

    private TemporalClusterProcesses cluster() {
        return (TemporalClusterProcesses) apps.temporal();
    }

    /** The cluster's name of the node {@code target} names ({@code temporal-history-1}: {@code history-1}). */
    private static String node(String target) {
        return target.substring(CLUSTER_NODE.length());
    }

    /** SIGKILL of {@code target}, no shutdown of any kind; returns the pid it killed. */
    long kill(String target) throws Exception {
        long pid = pid(target);
        switch (target) {
            case "redis" -> {
                if (sentinels != null) {
                    sentinels.loseMaster();
                } else {
                    redis.kill();
                }
            }
            case "temporal" -> ((TemporalProcess) apps.temporal()).kill();
            case "mariadb" -> mariadb.kill();
            default -> {
                if (target.startsWith(CLUSTER_NODE)) {
                    cluster().kill(node(target));
                    return pid;
                }
                apps.kill(target);
            }
        }
        return pid;
    }

    /**
     * Starts {@code target} again (same port, same files) and waits until it answers; on Redis
     * Sentinel {@code redis} is the promoted replica, with a new empty machine as its replica.
     */
    void restart(String target) throws Exception {
        switch (target) {
            case "redis" -> {
                if (sentinels != null) {
                    sentinels.replaceLostMaster(FAILOVER_TIMEOUT);
                } else {
                    redis.restart();
                }
            }
            case "temporal" -> ((TemporalProcess) apps.temporal()).restart();
            case "mariadb" -> mariadb.restart();
            default -> {
                if (target.startsWith(CLUSTER_NODE)) {
                    cluster().restart(node(target));
                    return;
                }
                apps.restart(target);
            }
        }
    }

    /** {@link Toxiproxy#breakLink}: {@code fault} on {@code link}; what Toxiproxy then reports of it. */
    String breakLink(String link, String fault) throws Exception {
        return toxiproxy.breakLink(link, fault);
    }

    /** {@link Toxiproxy#healLink}: {@code fault} off {@code link}; what Toxiproxy then reports of it. */
    String healLink(String link, String fault) throws Exception {
        return toxiproxy.healLink(link, fault);
    }

    /**
     * Every app's settings: a private stack's ({@link FlashSaleStack#environment}) with the stores
     * and Temporal behind their proxies, and no warm-up, so a restarted api answers at once. A pay or
     * cancel is answered with its outcome for up to 10 s (3 s by default): on a host that takes a
     * third of the box every outcome took longer than 3 s, and the run saw no payment confirmed.
     */
    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(FlashSaleStack.environment(appStores, temporalProxy));
        env.put("FLASHSALE_JWT_SECRET", jwtSecret);
        env.put("FLASHSALE_WARMUP_REQUESTS", "0");
        env.put("FLASHSALE_COMMAND_ANSWER_WITHIN", "10s");
        if (sentinels != null) {
            env.put("REDIS_SENTINEL_MASTER", RedisSentinels.MASTER_NAME);
            env.put("REDIS_SENTINEL_NODES", sentinels.sentinelNodes());
            env.put("FLASHSALE_REDIS_REPLICATION_REPLICAS", "1");
        }
        return env;
    }

    @Override
    public void close() throws Exception {
        // every store is the run's own: its files stay with the logs; the cluster's databases go
        if (apps != null) {
            apps.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (sentinels != null) {
            sentinels.close();
        }
    }
}
