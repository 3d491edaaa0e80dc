package io.flashsale.launcher.redis;

import io.flashsale.launcher.Processes;
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
 * The production topology of one Redis master on loopback: a master and a replica, each with a folder
 * of its own (one machine's disk), and three Sentinels (quorum 2). The first replica reads the master
 * through a {@link Toxiproxy} link, so a test can slow replication down or lose what it had not sent.
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
        super(dir);
    }

    /** Starts the group in {@code dir} (emptied first), the replica {@code replicationLatency} late. */
    public static RedisSentinels start(Path projectRoot, Path dir, Duration replicationLatency) throws Exception {
        RedisSentinels group = new RedisSentinels(dir);
        try {
            group.master = group.server(FreePorts.next(), 0);
            group.link = Toxiproxy.start(group.processes, projectRoot);
            int linkPort = group.link.proxy(REPLICATION, group.master.address());
            if (!replicationLatency.isZero()) {
                group.link.delay(REPLICATION, replicationLatency);
            }
            group.replica = group.server(FreePorts.next(), linkPort);
            group.awaitReplicaInSync(READY_TIMEOUT);
            for (int port : group.sentinelPorts) {
                group.startSentinel(port);
            }
            group.await("the sentinels ready", READY_TIMEOUT, () -> group.sentinelPorts.stream()
                    .map(port -> group.sentinel(port, c -> c.sync().master(MASTER_NAME))
                            .orElse(Map.of()))
                    .allMatch(
                            seen -> "1".equals(seen.get("num-slaves")) && "2".equals(seen.get("num-other-sentinels"))));
            return group;
        } catch (Exception e) {
            group.close();
            throw e;
        }
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

    /** The master now: the promoted replica once a lost master has been replaced. */
    public RedisNode master() {
        return master;
    }

    public RedisNode replica() {
        return replica;
    }

    /** The master's machine is gone: SIGKILL, its undelivered replication stream lost, its files deleted. */
    public void loseMaster() throws IOException {
        link.breakLink(REPLICATION, "cut");
        master.kill();
        Processes.deleteFolder(home(master.port()));
    }

    /**
     * After {@link #loseMaster}: a new empty server on the lost port joins the promoted replica as its
     * replica. Returns once every sentinel names the same one of the two as the master and sees the
     * other as its replica, in sync; on a loaded machine the sentinels may fail over once more, to
     * the new server, and {@link #master()} is then that one.
     */
    public void replaceLostMaster(Duration timeout) throws IOException, InterruptedException {
        awaitReplicaPromoted(timeout);
        RedisNode lost = master;
        master = replica;
        replica = server(lost.port(), master.port());
        await("every sentinel naming one master and seeing the other server as its replica", timeout, () -> {
            if (everySentinelSees(replica, master)) {
                RedisNode promoted = replica;
                replica = master;
                master = promoted;
            }
            return everySentinelSees(master, replica) && replicaInSync();
        });
    }

    private boolean everySentinelSees(RedisNode asMaster, RedisNode asReplica) {
        String replicaPort = Integer.toString(asReplica.port());
        return sentinelPorts.stream()
                .allMatch(sentinel -> namesAsMaster(sentinel, asMaster)
                        && sentinel(sentinel, c -> c.sync().slaves(MASTER_NAME)).orElse(List.of()).stream()
                                .anyMatch(seen ->
                                        replicaPort.equals(seen.get("port")) && "slave".equals(seen.get("flags"))));
    }

    /** Returns once the sentinels name the replica as the master and it answers as one. */
    public void awaitReplicaPromoted(Duration timeout) throws InterruptedException {
        await(
                "the replica promoted",
                timeout,
                () -> namesAsMaster(sentinelPorts.get(0), replica)
                        && "master".equals(info(replica.port(), REPLICATION, "role")));
    }

    /** The sentinel on {@code sentinel} names {@code node} as the master. */
    private boolean namesAsMaster(int sentinel, RedisNode node) {
        return sentinel(sentinel, c -> c.sync().getMasterAddrByName(MASTER_NAME))
                .filter(address -> address instanceof InetSocketAddress inet && inet.getPort() == node.port())
                .isPresent();
    }

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
        await("the replica in sync", timeout, this::replicaInSync);
    }

    private boolean replicaInSync() {
        return "up".equals(info(replica.port(), REPLICATION, "master_link_status"));
    }

    private void startSentinel(int port) throws IOException, InterruptedException {
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
