package io.flashsale.launcher.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * The server configuration of each node of a {@link ClusterSpec}, written as {@code
 * config/NODE.yaml} so that {@code temporal-server --config DIR --env NODE start --service S} reads
 * its own. Every file describes the same cluster (persistence, shards, membership through the
 * {@code cluster_membership} table and ringpop on loopback); they differ in the node's own ports.
 * With a Web UI port, the UI server's {@code ui/ui.yaml} too, pointing it at the frontend.
 */
public final class ClusterConfig {

    /** Connections per node to the default store: history does most of the writes. */
    private static final int HISTORY_CONNECTIONS = 20;

    private static final int OTHER_CONNECTIONS = 8;
    private static final int VISIBILITY_CONNECTIONS = 4;

    private ClusterConfig() {}

    /** Writes every node's file, the dynamic configuration they share and the Web UI server's. */
    public static void write(ClusterSpec spec) throws IOException {
        Files.createDirectories(spec.configFolder());
        for (ClusterSpec.Node node : spec.nodes()) {
            Files.writeString(spec.configFolder().resolve(node.name() + ".yaml"), render(spec, node));
        }
        Files.writeString(dynamicConfig(spec), DYNAMIC_CONFIG);
        if (spec.uiPort() > 0) {
            Files.writeString(
                    Files.createDirectories(spec.folder().resolve("ui")).resolve("ui.yaml"),
                    """
                    temporalGrpcAddress: "%s"
                    host: "%s"
                    port: %d
                    enableUi: true
                    defaultNamespace: "%s"
                    # served over plain HTTP on loopback
                    cors:
                      cookieInsecure: true
                    """
                            .formatted(spec.address(), spec.ip(), spec.uiPort(), spec.namespace()));
        }
    }

    static Path dynamicConfig(ClusterSpec spec) {
        return spec.configFolder().resolve("dynamicconfig.yaml");
    }

    /** The configuration {@code node} starts with. */
    static String render(ClusterSpec spec, ClusterSpec.Node node) {
        int connections = node.service().equals(ClusterSpec.HISTORY) ? HISTORY_CONNECTIONS : OTHER_CONNECTIONS;
        return """
                log:
                  stdout: true
                  level: warn
                persistence:
                  defaultStore: default
                  visibilityStore: visibility
                  numHistoryShards: %d
                  datastores:
                    default:
                %s
                    visibility:
                %s
                global:
                  membership:
                    maxJoinDuration: 30s
                    broadcastAddress: "%s"
                  metrics:
                    prometheus:
                      framework: tally
                      timerType: histogram
                      listenAddress: "%s:%d"
                services:
                %s
                clusterMetadata:
                  enableGlobalNamespace: false
                  failoverVersionIncrement: 10
                  masterClusterName: active
                  currentClusterName: active
                  clusterInformation:
                    active:
                      enabled: true
                      initialFailoverVersion: 1
                      rpcName: frontend
                      rpcAddress: "%s"
                dcRedirectionPolicy:
                  policy: noop
                dynamicConfigClient:
                  filepath: "%s"
                  pollInterval: 10s
                """
                .formatted(
                        spec.shards(),
                        nested(datastore(spec, spec.database(), connections), 6),
                        nested(datastore(spec, spec.visibilityDatabase(), VISIBILITY_CONNECTIONS), 6),
                        spec.ip(),
                        spec.ip(),
                        node.metricsPort(),
                        nested(services(spec, node), 2),
                        spec.address(),
                        dynamicConfig(spec));
    }

    /** {@code yaml} shifted right by {@code spaces}, to sit in a text block's line of its own. */
    private static String nested(String yaml, int spaces) {
        return yaml.indent(spaces).stripTrailing();
    }

    private static String datastore(ClusterSpec spec, String database, int connections) {
        ClusterSpec.Postgres postgres = spec.postgres();
        return """
                      sql:
                        pluginName: postgres12
                        databaseName: "%s"
                        connectAddr: "%s:%d"
                        connectProtocol: tcp
                        user: "%s"
                        password: "%s"
                        maxConns: %6$d
                        maxIdleConns: %6$d
                        maxConnLifetime: 1h"""
                .formatted(
                        database, postgres.host(), postgres.port(), postgres.user(), postgres.password(), connections);
    }

    /**
     * The {@code services} section: every service of the cluster once, the history entry being
     * this node's own when it is a history host (the others find it through membership).
     */
    private static String services(ClusterSpec spec, ClusterSpec.Node self) {
        return spec.nodes().stream()
                .filter(node -> !node.service().equals(ClusterSpec.HISTORY)
                        || node.equals(self)
                        || (!self.service().equals(ClusterSpec.HISTORY)
                                && node.equals(spec.historyHosts().get(0))))
                .map(ClusterConfig::service)
                .collect(Collectors.joining("\n"));
    }

    private static String service(ClusterSpec.Node node) {
        return """
                  %s:
                    rpc:
                      grpcPort: %d
                      membershipPort: %d
                      bindOnLocalHost: true%s"""
                .formatted(
                        node.service(),
                        node.grpcPort(),
                        node.membershipPort(),
                        node.httpPort() > 0 ? "\n    httpPort: " + node.httpPort() : "");
    }

    /**
     * Settings every node reads: ids as long as the purchase ids may be, and the search attributes
     * cached rather than read from the database on every visibility query (they are registered once).
     */
    private static final String DYNAMIC_CONFIG =
            """
            limit.maxIDLength:
              - value: 255
            system.forceSearchAttributesCacheRefreshOnRead:
              - value: false
            frontend.enableUpdateWorkflowExecution:
              - value: true
            """;
}
