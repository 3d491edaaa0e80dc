package io.flashsale.launcher.redis;

import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** One node's view of the cluster, as its {@code CLUSTER NODES} answer lists it; nodes by their ports. */
record Topology(Partitions partitions) {

    private static final Set<NodeFlag> TROUBLE =
            Set.of(NodeFlag.FAIL, NodeFlag.EVENTUAL_FAIL, NodeFlag.HANDSHAKE, NodeFlag.NOADDR);

    static Topology of(String clusterNodes) {
        return new Topology(ClusterPartitionParser.parse(clusterNodes));
    }

    /** The master serving {@code slot}; empty while no node serves it. */
    Optional<Integer> ownerOf(int slot) {
        return Optional.ofNullable(partitions.getPartitionBySlot(slot)).map(Topology::port);
    }

    /** The masters that serve slots. */
    List<Integer> masters() {
        return partitions.stream()
                .filter(node -> !node.getSlots().isEmpty())
                .map(Topology::port)
                .sorted()
                .toList();
    }

    /** The replica of the master on {@code masterPort}. */
    Optional<Integer> replicaOf(int masterPort) {
        return partitions.stream()
                .filter(node -> node.getSlaveOf() != null
                        && Optional.ofNullable(partitions.getPartitionByNodeId(node.getSlaveOf()))
                                        .map(Topology::port)
                                        .orElse(-1)
                                == masterPort)
                .map(Topology::port)
                .findFirst();
    }

    /**
     * Every one of {@code nodes} known and healthy, {@code masters} of them serving all slots, each
     * other node a replica.
     */
    boolean complete(int nodes, int masters) {
        return partitions.size() == nodes
                && partitions.stream()
                        .noneMatch(node -> node.getFlags().stream().anyMatch(TROUBLE::contains))
                && masters().size() == masters
                && partitions.stream().filter(node -> node.getSlaveOf() != null).count() == nodes - masters
                && partitions.stream().mapToLong(node -> node.getSlots().size()).sum() == SlotHash.SLOT_COUNT;
    }

    private static int port(RedisClusterNode node) {
        return node.getUri().getPort();
    }
}
