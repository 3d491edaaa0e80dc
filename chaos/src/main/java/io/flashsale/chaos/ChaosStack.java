package io.flashsale.chaos;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.launcher.TemporalService;
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
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * The system a chaos run breaks: its own Redis (AOF, everysec) and MariaDB, Temporal, two workers
 * and two apis as processes, each SIGKILLed and started again by name ({@link #targets}). The apps
 * reach the stores and Temporal through Toxiproxy, one proxy a store ({@link #links}); the checker
 * reads the stores directly. On Redis Sentinel killing {@code redis} loses the master's machine with
 * its disk, and as the sentinels hand out the master's own address there is no {@code to-redis} link.
 */
final class ChaosStack implements AutoCloseable {

    private static final List<String> APPS = List.of("api-1", "api-2", "worker-1", "worker-2");

    /** What the nemesis may kill on the dev server; on the Temporal cluster its frontend or a history host instead. */
    static final List<String> TARGETS = withApps("temporal", "redis", "mariadb");

    static final List<String> CLUSTER_TARGETS =
            withApps("temporal-frontend", "temporal-history-1", "temporal-history-2", "redis", "mariadb");

    /** The proxied connections from the apps to a store. */
    static final List<String> LINKS = List.of("to-redis", "to-mysql", "to-temporal");

    /** How long the sentinels may take to promote the replica after the master's machine is lost. */
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);

    /** A worker is UP only once it polls Temporal, which may be restarting, on 2 cores for everything. */
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

    private static List<String> withApps(String... others) {
        return Stream.concat(APPS.stream(), Stream.of(others)).toList();
    }

    static List<String> targets(boolean cluster) {
        return cluster ? CLUSTER_TARGETS : TARGETS;
    }

    static List<String> links(boolean sentinel) {
        return sentinel ? LINKS.subList(1, LINKS.size()) : LINKS;
    }

    /** Starts the stack, on the Temporal cluster when {@code cluster}, on Redis Sentinel when {@code sentinel}. */
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
                builder.cluster("chaos" + UUID.randomUUID().toString().substring(0, 8));
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

    List<URI> apis() {
        return List.of(apps.uri("api-1"), apps.uri("api-2"));
    }

    /** The run's stores, Redis as its master now. */
    PrivateStores stores() {
        return stores.onRedis(redisUrl());
    }

    private String redisUrl() {
        return sentinels != null ? "redis://127.0.0.1:" + sentinels.master().port() : redis.url();
    }

    Tokens tokens() {
        return new Tokens(jwtSecret);
    }

    private void proxyTheStores(Path root) throws Exception {
        toxiproxy = Toxiproxy.start(apps.processes(), root);
        appStores =
                stores.onMysql("jdbc:mysql://127.0.0.1:" + toxiproxy.proxy("to-mysql", "127.0.0.1:" + mariadb.port()));
        temporalProxy =
                "127.0.0.1:" + toxiproxy.proxy("to-temporal", apps.temporal().address());
        if (sentinels == null) {
            int redisPort = toxiproxy.proxy("to-redis", URI.create(redis.url()).getAuthority());
            appStores = appStores.onRedis("redis://127.0.0.1:" + redisPort);
        }
    }

    interface Step {
        void run() throws Exception;
    }

    /**
     * One target: its pid now (-1 when not running), a SIGKILL, and a start again on its port and
     * files (on Sentinel: the promoted replica) that waits till it answers.
     */
    record Target(LongSupplier pid, Step kill, Step restart) {}

    /** The process named {@code name}, one of {@link #targets}. */
    Target target(String name) {
        if (name.startsWith("temporal")) {
            TemporalService temporal = apps.temporal();
            return new Target(
                    () -> alive(temporal.process(name)), () -> temporal.kill(name), () -> temporal.restart(name));
        }
        return switch (name) {
            case "redis" -> sentinels != null
                    ? new Target(
                            () -> alive(sentinels.master().pid()),
                            sentinels::loseMaster,
                            () -> sentinels.replaceLostMaster(FAILOVER_TIMEOUT))
                    : new Target(redis::pid, redis::kill, redis::restart);
            case "mariadb" -> new Target(mariadb::pid, mariadb::kill, mariadb::restart);
            default -> new Target(() -> alive(apps.process(name)), () -> apps.kill(name), () -> apps.restart(name));
        };
    }

    private static long alive(Process process) {
        return process.isAlive() ? process.pid() : -1;
    }

    private static long alive(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent() ? pid : -1;
    }

    Toxiproxy toxiproxy() {
        return toxiproxy;
    }

    /**
     * A private stack's settings ({@link PrivateStores#environment}) through the proxies, no warm-up
     * (a restarted api answers at once), and pay and cancel answered with their outcome for up to 10 s
     * rather than 3 s: on a third of a box every outcome took longer than 3 s.
     */
    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(appStores.environment(temporalProxy));
        env.put("FLASHSALE_JWT_SECRET", jwtSecret);
        env.put("FLASHSALE_WARMUP_REQUESTS", "0");
        env.put("FLASHSALE_COMMAND_ANSWER_WITHIN", "10s");
        if (sentinels != null) {
            env.putAll(sentinels.environment(1));
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
