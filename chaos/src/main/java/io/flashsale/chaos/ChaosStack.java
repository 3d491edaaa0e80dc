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
 * The system a chaos run breaks: its own Redis (AOF, everysec) or Sentinel group and MariaDB,
 * Temporal, two workers and two apis as processes, each killed and started again by name, reaching
 * the stores through Toxiproxy; the checker reads the stores directly.
 */
final class ChaosStack implements AutoCloseable {

    /** How long the sentinels may take to promote the replica after the master's machine is lost. */
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);

    /** A worker is UP only once it polls Temporal, which may be restarting, on 2 cores for everything. */
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

    private final String jwtSecret = "chaos-" + UUID.randomUUID() + UUID.randomUUID();
    final Tokens tokens = new Tokens(jwtSecret);
    private FlashSaleStack apps;
    private RedisServer redis;
    private RedisSentinels sentinels;
    private MariaDb mariadb;
    private final Map<String, String> environment = new HashMap<>();
    private Toxiproxy toxiproxy;
    private PrivateStores stores;

    private ChaosStack() {}

    /** The links from the apps to the stores, which the nemesis breaks. */
    Toxiproxy toxiproxy() {
        return toxiproxy;
    }

    /** The run's stores; the checker reads its MariaDB. */
    PrivateStores stores() {
        return stores;
    }

    /** What the nemesis may kill: the apps, the dev server or the cluster's frontend and history hosts, the stores. */
    static List<String> targets(boolean cluster) {
        List<String> temporal = cluster
                ? List.of("temporal-frontend", "temporal-history-1", "temporal-history-2")
                : List.of("temporal");
        return Stream.of(List.of("api-1", "api-2", "worker-1", "worker-2"), temporal, List.of("redis", "mariadb"))
                .flatMap(List::stream)
                .toList();
    }

    /** The apps' proxied links to a store; none to Redis Sentinel, which hands out the master's own address. */
    static List<String> links(boolean sentinel) {
        return sentinel ? List.of("to-mysql", "to-temporal") : List.of("to-redis", "to-mysql", "to-temporal");
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
                    .environment(temporal -> stack.environment);
            if (cluster) {
                builder.cluster("chaos" + UUID.randomUUID().toString().substring(0, 8));
            }
            stack.apps = builder.start();
            PrivateStores fresh = PrivateStores.fresh();
            stack.mariadb =
                    MariaDb.start(stack.apps.processes(), logs.resolve("mariadb"), fresh.user(), fresh.password());
            String redisUrl =
                    sentinel ? "redis://127.0.0.1:" + stack.sentinels.master().port() : stack.redis.url();
            stack.stores = fresh.onRedis(redisUrl).onMysql(stack.mariadb.url());
            stack.toxiproxy = Toxiproxy.start(stack.apps.processes(), root);
            Toxiproxy proxy = stack.toxiproxy;
            PrivateStores proxied = stack.stores.onMysql(
                    "jdbc:mysql://127.0.0.1:" + proxy.proxy("to-mysql", "127.0.0.1:" + stack.mariadb.port()));
            if (!sentinel) {
                proxied = proxied.onRedis("redis://127.0.0.1:"
                        + proxy.proxy("to-redis", URI.create(redisUrl).getAuthority()));
            }
            // the private stack's settings through the proxies; no warm-up (a restarted api answers at
            // once); pay and cancel answered with their outcome for up to 10 s, not 3: on a third of a
            // box every outcome took longer than 3 s
            stack.environment.putAll(proxied.environment("127.0.0.1:"
                    + proxy.proxy("to-temporal", stack.apps.temporal().address())));
            stack.environment.putAll(Map.of(
                    "FLASHSALE_JWT_SECRET", stack.jwtSecret,
                    "FLASHSALE_WARMUP_REQUESTS", "0",
                    "FLASHSALE_COMMAND_ANSWER_WITHIN", "10s"));
            if (sentinel) {
                stack.environment.putAll(stack.sentinels.environment(1));
            }
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

    interface Step {
        void run() throws Exception;
    }

    /** A process: its pid now (-1 when not running), a SIGKILL, a start again on its port and files till it answers. */
    record Target(LongSupplier pid, Step kill, Step restart) {}

    /** The process named {@code name} ({@link #targets}); on Sentinel {@code redis} is the master and its disk. */
    Target target(String name) {
        if (name.startsWith("temporal")) {
            TemporalService temporal = apps.temporal();
            return new Target(
                    () -> alive(temporal.process(name).pid()), () -> temporal.kill(name), () -> temporal.restart(name));
        }
        return switch (name) {
            case "redis" -> sentinels != null
                    ? new Target(
                            () -> alive(sentinels.master().pid()),
                            sentinels::loseMaster,
                            () -> sentinels.replaceLostMaster(FAILOVER_TIMEOUT))
                    : new Target(() -> redis.node().pid(), () -> redis.node().kill(), redis::restart);
            case "mariadb" -> new Target(mariadb::pid, mariadb::kill, mariadb::restart);
            default -> new Target(
                    () -> alive(apps.process(name).pid()), () -> apps.kill(name), () -> apps.restart(name));
        };
    }

    private static long alive(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent() ? pid : -1;
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
