package io.flashsale.launcher.redis;

import io.flashsale.launcher.Processes;
import io.flashsale.testkit.FreePorts;
import io.lettuce.core.KillArgs;
import io.lettuce.core.cluster.SlotHash;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of local processes: {@value #MASTERS} masters with one replica each, {@code
 * redis-server --cluster-enabled yes} on free loopback ports, joined by {@code redis-cli --cluster
 * create ... --cluster-replicas 1}. Its state files and logs go to a directory of its own (emptied
 * first: a state file left by an earlier node on its port would make it rejoin that cluster).
 */
public final class RedisCluster extends LocalRedis {

    public static final int MASTERS = 3;
    private static final int NODES = 2 * MASTERS;

    /** {@code redis-server} options of every node, besides its ports and files. */
    private static final List<String> OPTIONS = List.of(
            "--cluster-enabled", "yes",
            // how long a node may stay unreachable before the others mark it failed (production: 15 s)
            "--cluster-node-timeout", "2000",
            // while a master fails over, only its own slots stop answering
            "--cluster-require-full-coverage", "no",
            "--appendonly", "no",
            "--save", "",
            // a replica syncs at once: diskless, without the default 5 s wait for more replicas
            "--repl-diskless-sync-delay", "0",
            "--repl-diskless-load", "on-empty-db");

    private final List<RedisNode> nodes = new ArrayList<>();

    private RedisCluster(Path dir) throws IOException {
        super("Redis Cluster", dir);
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

    /** The masters serving slots now, as a live node sees them. */
    public List<RedisNode> masters() {
        return topology().masters().stream().map(this::node).toList();
    }

    /** The master serving the slot of {@code key} (its hash tag decides) now. */
    public RedisNode masterOf(String key) {
        int slot = SlotHash.getSlot(key);
        return topology()
                .ownerOf(slot)
                .map(this::node)
                .orElseThrow(() -> new IllegalStateException("slot " + slot + " is not served"));
    }

    /** The keys matching {@code pattern} that {@code node} itself holds (KEYS on that node only). */
    public List<String> keys(RedisNode node, String pattern) {
        return on(node.port(), c -> c.sync().keys(pattern));
    }

    public RedisNode replicaOf(RedisNode master) {
        return topology()
                .replicaOf(master.port())
                .map(this::node)
                .orElseThrow(() -> new IllegalStateException(master + " has no replica"));
    }

    /**
     * The master's replica falls behind for good: once it has received everything the master wrote
     * before this call, its process is stopped (SIGSTOP) and the master drops its replication link,
     * so every write the master acknowledges from now on exists there only, as with a replica cut off
     * by the network. {@link #resume} lets it run again.
     *
     * @return the replica
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

    /** SIGCONT for a node {@link #cutReplication} stopped. */
    public void resume(RedisNode node) throws IOException, InterruptedException {
        node.signal("CONT");
    }

    /**
     * SIGKILL for {@code node}, once its own {@code INFO server} confirmed that the pid is the process
     * serving its port. Returns once the process is gone.
     */
    public void kill(RedisNode node) throws InterruptedException {
        String servingPid = info(node.port(), "server", "process_id");
        if (!node.isAlive() || !servingPid.equals(Long.toString(node.pid()))) {
            throw new IllegalStateException(
                    "pid " + node.pid() + " does not serve " + node.address() + " (" + servingPid + ")");
        }
        node.kill();
    }

    /**
     * Waits until {@code replica} is a master serving the slot of {@code key} and every live node
     * agrees with {@code cluster_state:ok}.
     */
    public void awaitPromoted(RedisNode replica, String key, Duration timeout) throws InterruptedException {
        int slot = SlotHash.getSlot(key);
        await(replica + " serves slot " + slot + " and the cluster is ok", timeout, () -> live().stream()
                .allMatch(n -> clusterOk(n) && topologyOf(n).ownerOf(slot).orElse(-1) == replica.port()));
    }

    private void startNode(int port, int busPort) throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(OPTIONS);
        options.addAll(List.of(
                "--cluster-port",
                Integer.toString(busPort),
                "--cluster-config-file",
                "nodes-" + port + ".conf",
                "--dbfilename",
                "dump-" + port + ".rdb",
                "--dir",
                dir.toString()));
        nodes.add(startServer("redis-" + port, port, options));
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

    private boolean ready() {
        return nodes.stream()
                .allMatch(node -> clusterOk(node)
                        && topologyOf(node).complete(NODES, MASTERS)
                        && (info(node.port(), "replication", "role").equals("master")
                                || info(node.port(), "replication", "master_link_status")
                                        .equals("up")));
    }

    private boolean clusterOk(RedisNode node) {
        return on(node.port(), c -> c.sync().clusterInfo()).contains("cluster_state:ok");
    }

    private Topology topology() {
        for (RedisNode node : live()) {
            try {
                return topologyOf(node);
            } catch (RuntimeException unreachable) {
                // a stopped node times out: ask the next
            }
        }
        throw new IllegalStateException("no node of the cluster answers");
    }

    private Topology topologyOf(RedisNode node) {
        return Topology.of(on(node.port(), c -> c.sync().clusterNodes()));
    }

    private List<RedisNode> live() {
        return nodes.stream().filter(RedisNode::isAlive).toList();
    }

    private RedisNode node(int port) {
        return nodes.stream()
                .filter(node -> node.port() == port)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no node of this cluster on port " + port));
    }

    /** Stops every node it started (SIGCONT first for one {@link #cutReplication} stopped). */
    @Override
    public void close() {
        for (RedisNode node : live()) {
            try {
                node.signal("CONT");
            } catch (IOException | InterruptedException gone) {
                // it exited meanwhile, or the processes go down by KILL all the same
            }
        }
        super.close();
    }
}
