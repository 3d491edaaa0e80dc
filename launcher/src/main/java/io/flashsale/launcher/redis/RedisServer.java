package io.flashsale.launcher.redis;

import io.flashsale.testkit.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One plain {@code redis-server} of a test's own, persisted the way the project runs Redis. It can
 * be SIGKILLed and started again on the same port and folder, where it loads its append-only file.
 */
public final class RedisServer extends LocalRedis {

    private final int port = FreePorts.next();
    private final List<String> options;
    private RedisNode node;

    private RedisServer(Path dir, String appendfsync) throws IOException {
        super(dir);
        options = new ArrayList<>(persisted(this.dir, appendfsync));
        options.addAll(List.of("--logfile", this.dir.resolve("redis.log").toString()));
    }

    /** Starts a server on a free loopback port with its files (AOF, log) in {@code dir}, emptied first. */
    public static RedisServer start(Path dir, String appendfsync) throws IOException, InterruptedException {
        RedisServer server = new RedisServer(dir, appendfsync);
        server.restart();
        return server;
    }

    /** {@code redis://127.0.0.1:port}, as {@code REDIS_URL} takes it. */
    public String url() {
        return "redis://" + node.address();
    }

    /** Its process now, to SIGKILL ({@link RedisNode#kill}) and start again with {@link #restart}. */
    public RedisNode node() {
        return node;
    }

    /** Starts the server (again) on the same port and files; returns once it answers PING (AOF loaded). */
    public void restart() throws IOException, InterruptedException {
        node = startServer("redis-server", port, options);
    }

    /** The server's log of all its starts. */
    public String log() throws IOException {
        return Files.readString(dir.resolve("redis.log"));
    }
}
