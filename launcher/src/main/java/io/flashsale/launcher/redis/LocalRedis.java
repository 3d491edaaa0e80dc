package io.flashsale.launcher.redis;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.Processes;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one owner of local redis-server processes, which a {@link RedisServer}, a {@link RedisCluster}
 * and a {@link RedisSentinels} group start: each in the shape's folder (emptied first), awaited,
 * asked on a connection of its own (2 s timeout) and stopped with the shape, or killed with the JVM.
 */
abstract class LocalRedis implements AutoCloseable {

    static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    final Path dir;
    final Processes processes;
    private final RedisClient client = RedisClient.create();

    LocalRedis(Path dir) throws IOException {
        this.dir = dir.toAbsolutePath();
        Processes.deleteFolder(this.dir);
        this.processes = new Processes(this.dir, READY_TIMEOUT);
    }

    /** Starts {@code redis-server options} on loopback {@code port} as {@code name}; returns once it answers PING. */
    RedisNode startServer(String name, int port, List<String> options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-server"));
        command.addAll(options);
        command.addAll(List.of("--bind", "127.0.0.1", "--port", Integer.toString(port)));
        Process process;
        try {
            process = processes.start(name, command, Map.of());
        } catch (IOException e) {
            throw new IOException("cannot start redis-server (Redis 7; bin/flashsale stores installs it)", e);
        }
        String what = "redis-server on " + port + "; see " + processes.log(name);
        Await.until(what, READY_TIMEOUT, process::isAlive, () -> "PONG"
                .equals(on(port, c -> c.sync().ping())));
        return new RedisNode(port, process);
    }

    /** Options of a server persisted as the project runs Redis: an append-only file, no snapshots, no replica delay. */
    static List<String> persisted(Path home, String appendfsync) throws IOException {
        return List.of(
                "--dir", Files.createDirectories(home).toString(),
                "--appendonly", "yes",
                "--appendfsync", appendfsync,
                "--save", "",
                "--repl-diskless-sync-delay", "0");
    }

    /** Waits until {@code condition} holds; fails naming {@code what} and the logs after {@code timeout}. */
    void await(String what, Duration timeout, Await.Check condition) throws InterruptedException {
        Await.until(what + "; logs in " + dir, timeout, () -> true, condition);
    }

    /** {@code call} on the server at {@code port}, on a connection of its own. */
    public <T> T on(int port, Function<StatefulRedisConnection<String, String>, T> call) {
        RedisURI uri = RedisURI.create("127.0.0.1", port);
        uri.setTimeout(Duration.ofSeconds(2));
        try (StatefulRedisConnection<String, String> connection = client.connect(uri)) {
            return call.apply(connection);
        }
    }

    /** {@code field} of {@code INFO section} of the server at {@code port}; "" when absent or unreachable. */
    String info(int port, String section, String field) {
        try {
            return on(port, c -> c.sync().info(section))
                    .lines()
                    .filter(line -> line.startsWith(field + ":"))
                    .map(line -> line.substring(field.length() + 1).trim())
                    .findFirst()
                    .orElse("");
        } catch (RuntimeException unreachable) {
            return "";
        }
    }

    /** {@code call} on the Sentinel at {@code port}; empty when it does not answer. */
    <T> Optional<T> sentinel(int port, Function<StatefulRedisSentinelConnection<String, String>, T> call) {
        try (StatefulRedisSentinelConnection<String, String> connection =
                client.connectSentinel(RedisURI.create("127.0.0.1", port))) {
            return Optional.ofNullable(call.apply(connection));
        } catch (RuntimeException notYet) {
            return Optional.empty();
        }
    }

    /** Stops every process in reverse start order (TERM, KILL after 30 s). */
    @Override
    public void close() {
        processes.close();
        client.shutdown();
    }
}
