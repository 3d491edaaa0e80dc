package io.flashsale.launcher.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flashsale.testkit.FreePorts;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

class ClusterSpecTest {

    private static final ClusterSpec.Postgres POSTGRES = new ClusterSpec.Postgres("127.0.0.1", 5432, "temporal", "pw");

    @TempDir
    Path folder;

    private ClusterSpec spec() {
        int[] next = {20000};
        return ClusterSpec.of("t1", folder, 7233, POSTGRES, "default", () -> next[0]++);
    }

    @Test
    void everyNodeReadsTheSameClusterWithItsOwnPorts() {
        ClusterSpec spec = spec();

        assertThat(spec.nodes().stream().map(ClusterSpec.Node::name))
                .containsExactly("frontend", "matching", "worker", "history-1", "history-2");
        for (ClusterSpec.Node node : spec.nodes()) {
            Map<String, Object> config = parse(spec.render(node));
            assertThat(at(config, "persistence", "numHistoryShards")).isEqualTo(16);
            assertThat(at(config, "persistence", "datastores", "default", "sql", "databaseName"))
                    .isEqualTo("temporal_t1");
            assertThat(at(config, "persistence", "datastores", "visibility", "sql", "databaseName"))
                    .isEqualTo("temporal_t1_visibility");
            assertThat(at(config, "persistence", "datastores", "default", "sql", "pluginName"))
                    .isEqualTo("postgres12");
            int connections = node.service().equals("history") ? 20 : 8;
            assertThat(at(config, "persistence", "datastores", "default", "sql", "maxConns"))
                    .isEqualTo(connections);
            assertThat(at(config, "persistence", "datastores", "default", "sql", "maxIdleConns"))
                    .isEqualTo(connections);
            assertThat(at(config, "persistence", "datastores", "visibility", "sql", "maxIdleConns"))
                    .isEqualTo(4);
            assertThat(at(config, "global", "metrics", "prometheus", "listenAddress"))
                    .isEqualTo("127.0.0.1:" + node.metricsPort());
            assertThat(at(config, "clusterMetadata", "clusterInformation", "active", "rpcAddress"))
                    .isEqualTo("127.0.0.1:7233");
            assertThat(at(config, "services", node.service(), "rpc", "grpcPort"))
                    .isEqualTo(node.grpcPort());
            assertThat(at(config, "services", node.service(), "rpc", "membershipPort"))
                    .isEqualTo(node.membershipPort());
        }
    }

    @Test
    void theTwoHistoryHostsListenApart() {
        ClusterSpec spec = spec();
        List<ClusterSpec.Node> hosts = spec.historyHosts();

        assertThat(hosts).hasSize(2);
        assertThat(hosts.get(0).grpcPort()).isNotEqualTo(hosts.get(1).grpcPort());
        assertThat(hosts.get(0).membershipPort()).isNotEqualTo(hosts.get(1).membershipPort());
        assertThat(spec.nodes().stream()
                        .flatMap(node ->
                                java.util.stream.Stream.of(node.grpcPort(), node.membershipPort(), node.metricsPort()))
                        .distinct()
                        .count())
                .isEqualTo(3L * spec.nodes().size());
    }

    /** cluster_membership.rpc_port is a SMALLINT in Temporal's PostgreSQL schema. */
    @Test
    void portsForAClusterFitASmallint() {
        IntSupplier ports = FreePorts::next;

        for (int i = 0; i < 20; i++) {
            assertThat(ports.getAsInt()).isBetween(1024, 32767);
        }
    }

    @Test
    void aNameThatCannotNameADatabaseIsRefused() {
        assertThatThrownBy(() -> ClusterSpec.of("Bad-Name", folder, 7233, POSTGRES, "default", () -> 20000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Bad-Name");
    }

    @Test
    void nodesStartFromTheirOwnFileInTheClustersFolder() {
        TemporalCluster cluster = new TemporalCluster(spec(), Path.of("/opt/temporal"));
        ClusterSpec.Node history2 = spec().node("history-2");

        assertThat(cluster.command(history2).get(0)).isEqualTo("/opt/temporal/server");
        assertThat(String.join(" ", cluster.command(history2).subList(1, 11)))
                .isEqualTo("--root " + folder.toAbsolutePath()
                        + " --config config --env history-2 --allow-no-auth start" + " --service history");
    }

    private static Map<String, Object> parse(String yaml) {
        return new Yaml().load(yaml);
    }

    @SuppressWarnings("unchecked")
    private static Object at(Map<String, Object> config, String... path) {
        Object value = config;
        for (String key : path) {
            value = ((Map<String, Object>) value).get(key);
        }
        return value;
    }
}
