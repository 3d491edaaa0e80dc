package io.flashsale.launcher.redis;

import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** One node's view of the cluster, as its {@code CLUSTER NODES} answer lists it. */
record Topology(Partitions partitions) {

    private static final Set<NodeFlag> TROUBLE =
            Set.of(NodeFlag.FAIL, NodeFlag.EVENTUAL_FAIL, NodeFlag.HANDSHAKE, NodeFlag.NOADDR);

    static Topology of(String clusterNodes) {
        return new Topology(ClusterPartitionParser.parse(clusterNodes));
    }

    /** The port of the master serving {@code slot}; empty while no node serves it. */
    Optional<Integer> ownerOf(int slot) {
        return Optional.ofNullable(partitions.getPartitionBySlot(slot))
                .map(RedisClusterNode::getUri)
                .map(u -> u.getPort());
    }

    /** Ports of the masters that serve slots. */
    List<Integer> masters() {
        return partitions.stream()
                .filter(node -> !node.getSlots().isEmpty())
                .map(node -> node.getUri().getPort())
                .sorted()
                .toList();
    }

    /** Port of the replica of the master on {@code masterPort}. */
    Optional<Integer> replicaOf(int masterPort) {
        Optional<String> masterId = partitions.stream()
                .filter(node -> node.getUri().getPort() == masterPort)
                .map(RedisClusterNode::getNodeId)
                .findFirst();
        return partitions.stream()
                .filter(node -> masterId.isPresent() && masterId.get().equals(node.getSlaveOf()))
                .map(node -> node.getUri().getPort())
                .findFirst();
    }

    /**
     * Every one of {@code nodes} known and healthy, {@code masters} of them serving all slots, each
     * other node a replica of one of them.
     */
    boolean complete(int nodes, int masters) {
        long replicas = partitions.stream()
                .filter(node -> node.getSlaveOf() != null && !node.getSlaveOf().isEmpty())
                .count();
        boolean healthy =
                partitions.stream().noneMatch(node -> node.getFlags().stream().anyMatch(TROUBLE::contains));
        long served =
                partitions.stream().mapToLong(node -> node.getSlots().size()).sum();
        return partitions.size() == nodes
                && healthy
                && masters().size() == masters
                && replicas == nodes - masters
                && served == SlotHash.SLOT_COUNT;
    }
}
