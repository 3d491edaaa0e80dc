package io.flashsale.launcher.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code redis-server --cluster-enabled yes} process of a {@link RedisCluster}: its client port,
 * cluster bus port and pid. Every signal goes to this pid only.
 */
public final class RedisNode {

    /** How long a node may stay unreachable before the others mark it failed (production default: 15 s). */
    static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);

    /** {@code redis-server} options ({@code name value}) of every node, besides its ports and files. */
    private static final List<String> OPTIONS = List.of(
            "bind 127.0.0.1",
            "cluster-enabled yes",
            "cluster-node-timeout " + NODE_TIMEOUT.toMillis(),
            // while a master fails over, only its own slots stop answering
            "cluster-require-full-coverage no",
            "appendonly no",
            "save ",
            // a replica syncs at once: diskless, without the default 5 s wait for more replicas
            "repl-diskless-sync-delay 0",
            "repl-diskless-load on-empty-db");

    private final int port;
    private final Process process;

    private RedisNode(int port, Process process) {
        this.port = port;
        this.process = process;
    }

    /**
     * Starts a node without persistence, bound to loopback; its cluster state file and log go to
     * {@code dir}.
     */
    static RedisNode start(Path dir, int port, int busPort) throws IOException {
        List<String> command = new ArrayList<>(List.of("redis-server"));
        List<String> options = new ArrayList<>(OPTIONS);
        options.addAll(List.of(
                "port " + port,
                "cluster-port " + busPort,
                "cluster-config-file nodes-" + port + ".conf",
                "dbfilename dump-" + port + ".rdb",
                "dir " + dir.toAbsolutePath()));
        for (String option : options) {
            int space = option.indexOf(' ');
            command.addAll(List.of("--" + option.substring(0, space), option.substring(space + 1)));
        }
        // a state file left by an earlier node on the same port would make this one rejoin that cluster
        Files.deleteIfExists(dir.resolve("nodes-" + port + ".conf"));
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis-" + port + ".log").toFile())
                    .start();
            return new RedisNode(port, process);
        } catch (IOException e) {
            throw new IOException(
                    "cannot start redis-server (Redis 7 on the PATH; bin/flashsale stores installs it)", e);
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** {@code 127.0.0.1:port}, as {@code REDIS_CLUSTER_NODES} lists it. */
    public String address() {
        return "127.0.0.1:" + port;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends {@code signal} (e.g. STOP, CONT) to this node's pid. */
    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid()))
                .redirectErrorStream(true)
                .start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + pid() + " failed: "
                    + new String(kill.getInputStream().readAllBytes()));
        }
    }

    /** SIGKILL: no shutdown, no last write to a replica. Returns once the process is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM (after SIGCONT, should it be stopped), SIGKILL if it is still there after 10 s. */
    void stop() throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        try {
            signal("CONT");
        } catch (IOException gone) {
            // it exited meanwhile
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            kill();
        }
    }

    /** SIGKILL without waiting, for a JVM that exits without closing its cluster. */
    void killNow() {
        process.destroyForcibly();
    }

    @Override
    public String toString() {
        return address() + " (pid " + pid() + ")";
    }
}
