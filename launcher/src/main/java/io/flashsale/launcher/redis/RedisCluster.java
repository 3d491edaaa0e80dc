package io.flashsale.launcher.redis;

import io.flashsale.launcher.Processes;
import io.flashsale.testkit.FreePorts;
import io.lettuce.core.KillArgs;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of local processes: 3 masters with one replica each on free loopback ports, joined
 * by {@code redis-cli --cluster create}. Its folder is emptied first: a state file left by an earlier
 * node on its port would make it rejoin that cluster.
 */
public final class RedisCluster extends LocalRedis {

    private static final int MASTERS = 3;
    private static final int NODES = 2 * MASTERS;

    private final List<RedisNode> nodes = new ArrayList<>();

    private RedisCluster(Path dir) throws IOException {
        super(dir);
    }

    /** Starts the nodes, creates the cluster and waits until every replica has synced with its master. */
    public static RedisCluster start(Path dir) throws IOException, InterruptedException {
        RedisCluster cluster = new RedisCluster(dir);
        try {
            for (int i = 0; i < NODES; i++) {
                cluster.startNode(FreePorts.next(), FreePorts.next());
            }
            cluster.create();
            cluster.await("3 masters, 3 synced replicas, cluster_state:ok", READY_TIMEOUT, cluster::ready);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** {@code host:port,...} of every node: {@code REDIS_CLUSTER_NODES} / {@code spring.data.redis.cluster.nodes}. */
    public String nodes() {
        return nodes.stream().map(RedisNode::address).collect(Collectors.joining(","));
    }

    /** Every node it started, alive or not, in start order. */
    public List<RedisNode> all() {
        return List.copyOf(nodes);
    }

    /** The masters serving slots now, as a live node sees them, by port. */
    public List<RedisNode> masters() {
        return partitions().stream()
                .filter(node -> !node.getSlots().isEmpty())
                .map(this::node)
                .sorted(Comparator.comparingInt(RedisNode::port))
                .toList();
    }

    /** The master serving the slot of {@code key} (its hash tag decides) now. */
    public RedisNode masterOf(String key) {
        int slot = SlotHash.getSlot(key);
        return Optional.ofNullable(partitions().getPartitionBySlot(slot))
                .map(this::node)
                .orElseThrow(() -> new IllegalStateException("slot " + slot + " is not served"));
    }

    /** The keys matching {@code pattern} that {@code node} itself holds (KEYS on that node only). */
    public List<String> keys(RedisNode node, String pattern) {
        return on(node.port(), c -> c.sync().keys(pattern));
    }

    public RedisNode replicaOf(RedisNode master) {
        Partitions partitions = partitions();
        String masterId = Optional.ofNullable(partitions.getPartition("127.0.0.1", master.port()))
                .orElseThrow(() -> new IllegalStateException(master + " is not in the cluster's view"))
                .getNodeId();
        return partitions.stream()
                .filter(node -> masterId.equals(node.getSlaveOf()))
                .map(this::node)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(master + " has no replica"));
    }

    /**
     * Stops (SIGSTOP) the master's replica once it has all the master wrote so far and drops its
     * link, so later writes exist on the master only; returns the replica, for {@link RedisNode#signal} CONT.
     */
    public RedisNode cutReplication(RedisNode master) throws IOException, InterruptedException {
        RedisNode replica = replicaOf(master);
        long written = Long.parseLong(info(master.port(), "replication", "master_repl_offset"));
        await(
                replica + " has replicated " + master + " up to offset " + written,
                READY_TIMEOUT,
                () -> Long.parseLong(info(replica.port(), "replication", "slave_repl_offset")) >= written);
        replica.signal("STOP");
        on(master.port(), c -> c.sync().clientKill(KillArgs.Builder.typeSlave()));
        return replica;
    }

    /** Waits until {@code replica} serves the slot of {@code key} and every live node says {@code cluster_state:ok}. */
    public void awaitPromoted(RedisNode replica, String key, Duration timeout) throws InterruptedException {
        int slot = SlotHash.getSlot(key);
        await(replica + " serves slot " + slot + " and the cluster is ok", timeout, () -> live().stream()
                .allMatch(node -> clusterInfo(node).contains("cluster_state:ok")
                        && Optional.ofNullable(partitions(node).getPartitionBySlot(slot))
                                .filter(owner -> owner.getUri().getPort() == replica.port())
                                .isPresent()));
    }

    private void startNode(int port, int busPort) throws IOException, InterruptedException {
        nodes.add(startServer(
                "redis-" + port,
                port,
                List.of(
                        "--cluster-enabled", "yes",
                        "--cluster-port", Integer.toString(busPort),
                        "--cluster-config-file", "nodes-" + port + ".conf",
                        // how long a node may stay unreachable before the others mark it failed (production: 15 s)
                        "--cluster-node-timeout", "2000",
                        // while a master fails over, only its own slots stop answering
                        "--cluster-require-full-coverage", "no",
                        "--dir", dir.toString(),
                        "--dbfilename", "dump-" + port + ".rdb", // the nodes share the folder
                        "--save", "", // no snapshots; the append-only file is off by default
                        // a replica syncs at once: diskless, without the default 5 s wait for more replicas
                        "--repl-diskless-sync-delay", "0",
                        "--repl-diskless-load", "on-empty-db")));
    }

    private void create() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        nodes.forEach(node -> command.add(node.address()));
        command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        Path log = dir.resolve("cluster-create.log");
        if (Processes.exec(command, Map.of(), log, READY_TIMEOUT) != 0) {
            throw new IOException("redis-cli --cluster create failed: " + Files.readString(log));
        }
    }

    /** What no node of a ready cluster is flagged with, as any node sees it. */
    private static final Set<NodeFlag> BROKEN =
            EnumSet.of(NodeFlag.FAIL, NodeFlag.EVENTUAL_FAIL, NodeFlag.HANDSHAKE, NodeFlag.NOADDR);

    /** Every node sees 6 healthy nodes: 3 masters serving every slot and 3 replicas; every replica has synced. */
    private boolean ready() {
        List<String> healthy = List.of(
                "cluster_state:ok",
                "cluster_slots_ok:" + SlotHash.SLOT_COUNT,
                "cluster_known_nodes:" + NODES,
                "cluster_size:" + MASTERS);
        return nodes.stream()
                .allMatch(node -> clusterInfo(node).containsAll(healthy)
                        && partitions(node).stream()
                                .noneMatch(seen -> seen.getFlags().stream().anyMatch(BROKEN::contains))
                        && partitions(node).stream()
                                        .filter(seen -> seen.getSlaveOf() != null)
                                        .count()
                                == NODES - MASTERS
                        && (info(node.port(), "replication", "role").equals("master")
                                || info(node.port(), "replication", "master_link_status")
                                        .equals("up")));
    }

    private List<String> clusterInfo(RedisNode node) {
        return on(node.port(), c -> c.sync().clusterInfo()).lines().toList();
    }

    /** The cluster as the first live node that answers sees it. */
    private Partitions partitions() {
        for (RedisNode node : live()) {
            try {
                return partitions(node);
            } catch (RuntimeException unreachable) {
                // a stopped node times out: ask the next
            }
        }
        throw new IllegalStateException("no node of the cluster answers");
    }

    private Partitions partitions(RedisNode node) {
        return ClusterPartitionParser.parse(
                this.<String>on(node.port(), c -> c.sync().clusterNodes()));
    }

    private List<RedisNode> live() {
        return nodes.stream().filter(RedisNode::isAlive).toList();
    }

    private RedisNode node(RedisClusterNode seen) {
        return nodes.stream()
                .filter(node -> node.port() == seen.getUri().getPort())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no node of this cluster on " + seen.getUri()));
    }

    /** Kills every node it started (one {@link #cutReplication} stopped would wait out a TERM), then the rest. */
    @Override
    public void close() {
        live().forEach(RedisNode::kill);
        super.close();
    }
}
