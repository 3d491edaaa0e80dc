package io.flashsale.launcher.redis;

import io.flashsale.launcher.Folders;
import io.flashsale.testkit.FreePorts;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One plain {@code redis-server} of a test's own, persisted the way the project runs Redis: an
 * append-only file with {@code appendfsync} as given, no RDB snapshots. It can be SIGKILLed and
 * started again on the same port and directory, where it loads its append-only file. Every signal
 * goes to its own pid only.
 */
public final class RedisServer implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path dir;
    private final int port;
    private final String appendfsync;
    private Process process;
    private int starts;

    private RedisServer(Path dir, int port, String appendfsync) {
        this.dir = dir;
        this.port = port;
        this.appendfsync = appendfsync;
    }

    /** Starts a server on a free loopback port with its files (AOF, log) in {@code dir}, emptied first. */
    public static RedisServer start(Path dir, String appendfsync) throws IOException, InterruptedException {
        Folders.delete(dir);
        Files.createDirectories(dir);
        RedisServer server =
                new RedisServer(dir.toAbsolutePath(), FreePorts.take(1).get(0), appendfsync);
        server.launch();
        return server;
    }

    /** {@code redis://127.0.0.1:port}, as {@code REDIS_URL} takes it. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    /** SIGKILL: no shutdown, nothing written after the kill. Returns once the process is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Starts the server again on the same port and files; returns once it answers PING (AOF loaded). */
    public void restart() throws IOException, InterruptedException {
        if (process.isAlive()) {
            throw new IllegalStateException("redis-server " + pid() + " still runs");
        }
        launch();
    }

    /** The server's log of all its starts ({@code redis.log} in its directory). */
    public String log() throws IOException {
        return Files.readString(dir.resolve("redis.log"));
    }

    private void launch() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                Integer.toString(port),
                "--dir",
                dir.toString(),
                "--appendonly",
                "yes",
                "--appendfsync",
                appendfsync,
                "--save",
                "",
                "--logfile",
                dir.resolve("redis.log").toString()));
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException(
                    "cannot start redis-server (Redis 7 on the PATH; bin/flashsale stores installs it)", e);
        }
        starts++;
        awaitPong();
    }

    private void awaitPong() throws InterruptedException, IOException {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("redis-server exited (start " + starts + "), see " + dir.resolve("redis.log"));
            }
            try (RedisClient client = RedisClient.create(url());
                    StatefulRedisConnection<String, String> connection = client.connect()) {
                if ("PONG".equals(connection.sync().ping())) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // not listening yet, or still loading its append-only file
            }
            Thread.sleep(100); // polling a process that is starting
        }
        throw new IOException("redis-server did not answer PING within " + START_TIMEOUT);
    }

    /** SIGTERM, SIGKILL after 10 s. */
    @Override
    public void close() throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            kill();
        }
    }
}
