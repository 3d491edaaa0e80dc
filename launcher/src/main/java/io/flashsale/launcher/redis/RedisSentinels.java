package io.flashsale.launcher.redis;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.Folders;
import io.flashsale.launcher.proxy.Toxiproxy;
import io.flashsale.testkit.FreePorts;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The production topology for a single Redis master, on loopback: a master and a replica (each with
 * its append-only file, {@code appendfsync everysec}, in a directory of its own) and three Redis
 * Sentinels watching them (quorum 2). The replica reads the master through a {@link Toxiproxy}
 * link, so a test can slow replication down, and {@link #loseMaster} takes the master's machine away:
 * the process SIGKILLed, what its network had not delivered lost, its disk deleted; {@link
 * #replaceLostMaster} then puts a new empty machine in its place as the promoted master's replica, so
 * the master can be lost again. Only the first replica reads through the link: a replacement
 * replicates from the promoted master directly. Every signal goes to the pids started here.
 */
public final class RedisSentinels implements AutoCloseable {

    /** The master's name at the sentinels ({@code REDIS_SENTINEL_MASTER}). */
    public static final String MASTER_NAME = "flashsale";

    private static final Duration READY_TIMEOUT = RedisProcesses.READY_TIMEOUT;
    private static final String REPLICATION = "replication";

    private final Path dir;
    private final RedisProcesses processes;
    private int masterPort;
    private int replicaPort;
    private final List<Integer> sentinelPorts;
    private Process master;
    private Process replica;
    private Toxiproxy link;

    private RedisSentinels(Path dir, List<Integer> ports) throws IOException {
        this.dir = dir.toAbsolutePath();
        this.processes = new RedisProcesses(this.dir);
        this.masterPort = ports.get(0);
        this.replicaPort = ports.get(1);
        this.sentinelPorts = ports.subList(2, 5);
    }

    /**
     * Starts the master, the replica (replicating {@code replicationLatency} late) and the three
     * sentinels in {@code dir} (emptied first); returns once the replica is in sync and every sentinel
     * knows the replica and the two other sentinels. {@code projectRoot}: where Toxiproxy is built.
     */
    public static RedisSentinels start(Path projectRoot, Path dir, Duration replicationLatency) throws Exception {
        Folders.delete(dir);
        Files.createDirectories(dir);
        RedisSentinels group = new RedisSentinels(dir, FreePorts.take(5));
        try {
            group.launch(projectRoot, replicationLatency);
        } catch (Exception e) {
            group.close();
            throw e;
        }
        return group;
    }

    /** {@code host:port,...} of the sentinels, as {@code REDIS_SENTINEL_NODES} takes them. */
    public String sentinelNodes() {
        return sentinelPorts.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    public int masterPort() {
        return masterPort;
    }

    public int replicaPort() {
        return replicaPort;
    }

    public long masterPid() {
        return master.pid();
    }

    /** The machine of the master is gone: SIGKILL, its undelivered replication stream lost, its files deleted. */
    public void loseMaster() throws IOException, InterruptedException {
        link.breakLink(REPLICATION, "cut");
        master.destroyForcibly();
        master.waitFor();
        Folders.delete(home(masterPort));
    }

    /**
     * After {@link #loseMaster}: once the sentinels have promoted the replica, a new empty server on
     * the lost machine's port joins as its replica; returns once it is in sync and every sentinel
     * counts it as a live replica. The two swap roles: the next loss takes the promoted one.
     */
    public void replaceLostMaster(Duration timeout) throws IOException, InterruptedException {
        awaitReplicaPromoted(timeout);
        int lost = masterPort;
        master = replica;
        masterPort = replicaPort;
        replicaPort = lost;
        replica = server(replicaPort, "--replicaof", "127.0.0.1", Integer.toString(masterPort));
        await("the new replica in sync", timeout, () -> "up".equals(info(replicaPort, "master_link_status")));
        await("the new replica seen by every sentinel", timeout, () -> sentinelPorts.stream()
                .allMatch(port -> processes.sentinel(port, c -> c.sync().slaves(MASTER_NAME)).orElse(List.of()).stream()
                        .anyMatch(seen -> Integer.toString(replicaPort).equals(seen.get("port"))
                                && "slave".equals(seen.get("flags")))));
    }

    /** SIGKILL of the replica; returns once it is gone. */
    public void killReplica() throws InterruptedException {
        replica.destroyForcibly();
        replica.waitFor();
    }

    /** Returns once the sentinels name the replica as the master and it answers as one. */
    public void awaitReplicaPromoted(Duration timeout) throws InterruptedException {
        await("the replica promoted", timeout, () -> {
            boolean named = processes
                    .sentinel(sentinelPorts.get(0), c -> c.sync().getMasterAddrByName(MASTER_NAME))
                    .filter(address -> address instanceof InetSocketAddress inet && inet.getPort() == replicaPort)
                    .isPresent();
            return named && "master".equals(role(replicaPort));
        });
    }

    /** A command on the server at {@code port}, on a connection of its own. */
    public <T> T on(int port, Function<StatefulRedisConnection<String, String>, T> command) {
        return processes.on(port, command);
    }

    private void launch(Path projectRoot, Duration replicationLatency) throws Exception {
        master = server(masterPort);
        link = Toxiproxy.start(processes.processes(), projectRoot);
        int linkPort = link.proxy(REPLICATION, "127.0.0.1:" + masterPort);
        if (!replicationLatency.isZero()) {
            link.delay(REPLICATION, replicationLatency);
        }
        replica = server(replicaPort, "--replicaof", "127.0.0.1", Integer.toString(linkPort));
        await("the replica in sync", READY_TIMEOUT, () -> "up".equals(info(replicaPort, "master_link_status")));
        for (int port : sentinelPorts) {
            sentinel(port);
        }
        await("the sentinels ready", READY_TIMEOUT, () -> sentinelPorts.stream().allMatch(port -> {
            Map<String, String> seen =
                    processes.sentinel(port, c -> c.sync().master(MASTER_NAME)).orElse(Map.of());
            return "1".equals(seen.get("num-slaves")) && "2".equals(seen.get("num-other-sentinels"));
        }));
    }

    /** The files of the server on {@code port}: one machine's disk. */
    private Path home(int port) {
        return dir.resolve("redis-" + port);
    }

    private Process server(int port, String... more) throws IOException, InterruptedException {
        Path home = Files.createDirectories(home(port));
        List<String> options = new ArrayList<>(List.of(
                "--dir",
                home.toString(),
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--save",
                "",
                "--repl-diskless-sync-delay",
                "0"));
        options.addAll(List.of(more));
        return processes.start("redis-" + port, port, options);
    }

    private void sentinel(int port) throws IOException, InterruptedException {
        Path conf = dir.resolve("sentinel-" + port + ".conf");
        Files.writeString(
                conf,
                String.join(
                        "\n",
                        "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " 2",
                        "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                        "sentinel failover-timeout " + MASTER_NAME + " 5000",
                        "sentinel parallel-syncs " + MASTER_NAME + " 1",
                        ""));
        processes.start("sentinel-" + port, port, List.of(conf.toString(), "--sentinel"));
    }

    private String role(int port) {
        return info(port, "role");
    }

    private String info(int port, String field) {
        return processes.info(port, REPLICATION, field);
    }

    private void await(String what, Duration timeout, Await.Check condition) throws InterruptedException {
        Await.until("Redis Sentinel: " + what + "; logs in " + dir, timeout, () -> true, condition);
    }

    /** Stops every process it started, the link's too (SIGTERM, SIGKILL after 30 s). */
    @Override
    public void close() {
        processes.close();
    }
}
