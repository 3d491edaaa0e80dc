package io.flashsale.launcher.redis;

import io.flashsale.launcher.Folders;
import io.flashsale.launcher.proxy.Toxiproxy;
import io.flashsale.testkit.FreePorts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The production topology for a single Redis master, on loopback: a master and a replica (each
 * {@link LocalRedis#persisted} in a directory of its own, one machine's disk) and three Redis
 * Sentinels watching them (quorum 2). The replica reads the master through a {@link Toxiproxy}
 * link, so a test can slow replication down, and {@link #loseMaster} takes the master's machine away:
 * the process SIGKILLed, what its network had not delivered lost, its disk deleted; {@link
 * #replaceLostMaster} then puts a new empty machine in its place as the promoted master's replica, so
 * the master can be lost again. Only the first replica reads through the link: a replacement
 * replicates from the promoted master directly.
 */
public final class RedisSentinels extends LocalRedis {

    /** The master's name at the sentinels ({@code REDIS_SENTINEL_MASTER}). */
    public static final String MASTER_NAME = "flashsale";

    private static final String REPLICATION = "replication";

    private final List<Integer> sentinelPorts = FreePorts.take(3);
    private RedisNode master;
    private RedisNode replica;
    private Toxiproxy link;

    private RedisSentinels(Path dir) throws IOException {
        super("Redis Sentinel", dir);
    }

    /**
     * Starts the master, the replica (replicating {@code replicationLatency} late) and the three
     * sentinels in {@code dir} (emptied first); returns once the replica is in sync and every sentinel
     * knows the replica and the two other sentinels. {@code projectRoot}: where Toxiproxy is built.
     */
    public static RedisSentinels start(Path projectRoot, Path dir, Duration replicationLatency) throws Exception {
        RedisSentinels group = new RedisSentinels(dir);
        try {
            group.startGroup(projectRoot, replicationLatency);
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

    /** What an app is given to find the master through the sentinels, a 202 waiting for {@code replicas}. */
    public Map<String, String> environment(int replicas) {
        return Map.of(
                "REDIS_SENTINEL_MASTER", MASTER_NAME,
                "REDIS_SENTINEL_NODES", sentinelNodes(),
                "FLASHSALE_REDIS_REPLICATION_REPLICAS", Integer.toString(replicas));
    }

    public int masterPort() {
        return master.port();
    }

    public int replicaPort() {
        return replica.port();
    }

    public long masterPid() {
        return master.pid();
    }

    /** The machine of the master is gone: SIGKILL, its undelivered replication stream lost, its files deleted. */
    public void loseMaster() throws IOException, InterruptedException {
        link.breakLink(REPLICATION, "cut");
        master.kill();
        Folders.delete(home(master.port()));
    }

    /**
     * After {@link #loseMaster}: once the sentinels have promoted the replica, a new empty server on
     * the lost machine's port joins as its replica; returns once it is in sync and every sentinel
     * counts it as a live replica. The two swap roles: the next loss takes the promoted one.
     */
    public void replaceLostMaster(Duration timeout) throws IOException, InterruptedException {
        awaitReplicaPromoted(timeout);
        RedisNode lost = master;
        master = replica;
        replica = server(lost.port(), master.port());
        awaitReplicaInSync(timeout);
        await("the new replica seen by every sentinel", timeout, () -> sentinelPorts.stream()
                .allMatch(port -> sentinel(port, c -> c.sync().slaves(MASTER_NAME)).orElse(List.of()).stream()
                        .anyMatch(seen -> Integer.toString(replica.port()).equals(seen.get("port"))
                                && "slave".equals(seen.get("flags")))));
    }

    /** SIGKILL of the replica; returns once it is gone. */
    public void killReplica() throws InterruptedException {
        replica.kill();
    }

    /** Returns once the sentinels name the replica as the master and it answers as one. */
    public void awaitReplicaPromoted(Duration timeout) throws InterruptedException {
        await(
                "the replica promoted",
                timeout,
                () -> sentinel(sentinelPorts.get(0), c -> c.sync().getMasterAddrByName(MASTER_NAME))
                                .filter(address ->
                                        address instanceof InetSocketAddress inet && inet.getPort() == replica.port())
                                .isPresent()
                        && "master".equals(info(replica.port(), REPLICATION, "role")));
    }

    private void startGroup(Path projectRoot, Duration replicationLatency) throws Exception {
        master = server(FreePorts.next(), 0);
        link = Toxiproxy.start(processes, projectRoot);
        int linkPort = link.proxy(REPLICATION, master.address());
        if (!replicationLatency.isZero()) {
            link.delay(REPLICATION, replicationLatency);
        }
        replica = server(FreePorts.next(), linkPort);
        awaitReplicaInSync(READY_TIMEOUT);
        for (int port : sentinelPorts) {
            sentinel(port);
        }
        await("the sentinels ready", READY_TIMEOUT, () -> sentinelPorts.stream().allMatch(port -> {
            Map<String, String> seen =
                    sentinel(port, c -> c.sync().master(MASTER_NAME)).orElse(Map.of());
            return "1".equals(seen.get("num-slaves")) && "2".equals(seen.get("num-other-sentinels"));
        }));
    }

    /** The files of the server on {@code port}: one machine's disk. */
    private Path home(int port) {
        return dir.resolve("redis-" + port);
    }

    /** A server on {@code port}, the replica of the one on {@code masterPort} (0: a master). */
    private RedisNode server(int port, int masterPort) throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(persisted(home(port), "everysec"));
        if (masterPort > 0) {
            options.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(masterPort)));
        }
        return startServer("redis-" + port, port, options);
    }

    private void awaitReplicaInSync(Duration timeout) throws InterruptedException {
        await("the replica in sync", timeout, () -> "up"
                .equals(info(replica.port(), REPLICATION, "master_link_status")));
    }

    private void sentinel(int port) throws IOException, InterruptedException {
        Path conf = dir.resolve("sentinel-" + port + ".conf");
        Files.writeString(
                conf,
                """
                sentinel monitor %1$s 127.0.0.1 %2$d 2
                sentinel down-after-milliseconds %1$s 1000
                sentinel failover-timeout %1$s 5000
                sentinel parallel-syncs %1$s 1
                """
                        .formatted(MASTER_NAME, master.port()));
        startServer("sentinel-" + port, port, List.of(conf.toString(), "--sentinel"));
    }
}
