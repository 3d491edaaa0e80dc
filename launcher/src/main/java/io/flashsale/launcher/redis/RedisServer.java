package io.flashsale.launcher.redis;

import io.flashsale.launcher.Folders;
import io.flashsale.testkit.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One plain {@code redis-server} of a test's own, persisted the way the project runs Redis: an
 * append-only file with {@code appendfsync} as given, no RDB snapshots. It can be SIGKILLed and
 * started again on the same port and directory, where it loads its append-only file. Every signal
 * goes to its own pid only.
 */
public final class RedisServer implements AutoCloseable {

    private final Path dir;
    private final int port;
    private final String appendfsync;
    private final RedisProcesses processes;
    private Process process;

    private RedisServer(Path dir, int port, String appendfsync) throws IOException {
        this.dir = dir;
        this.port = port;
        this.appendfsync = appendfsync;
        this.processes = new RedisProcesses(dir);
    }

    /** Starts a server on a free loopback port with its files (AOF, log) in {@code dir}, emptied first. */
    public static RedisServer start(Path dir, String appendfsync) throws IOException, InterruptedException {
        Folders.delete(dir);
        Files.createDirectories(dir);
        RedisServer server = new RedisServer(dir.toAbsolutePath(), FreePorts.next(), appendfsync);
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
        process = processes.start(
                "redis-server",
                port,
                List.of(
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
    }

    /** SIGTERM, SIGKILL after 30 s. */
    @Override
    public void close() {
        processes.close();
    }
}
