package io.flashsale.launcher.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

/**
 * One production-like Temporal cluster: its name (which names its two PostgreSQL databases), the
 * folder that holds its configuration and state, the number of history shards, one {@link Node} per
 * server process on loopback (frontend, matching, worker, then the history hosts), and the port of
 * its Web UI server (0: none). {@link #write} puts each node's server configuration in {@code
 * config/NODE.yaml}, so {@code temporal-server --config DIR --env NODE} reads its own: every file
 * describes the same cluster (persistence, shards, membership through the {@code
 * cluster_membership} table and ringpop on loopback) and differs in the node's own ports.
 */
public record ClusterSpec(
        String name,
        Path folder,
        String ip,
        int shards,
        Postgres postgres,
        String namespace,
        List<Node> nodes,
        int uiPort) {

    /** Where Temporal keeps its state: a PostgreSQL server and a login role allowed to create databases. */
    public record Postgres(String host, int port, String user, String password) {

        /** {@code TEMPORAL_PG_HOST}, {@code TEMPORAL_PG_PORT}, {@code TEMPORAL_PG_USER}, {@code TEMPORAL_PG_PASSWORD}. */
        public static Postgres fromEnvironment() {
            return new Postgres(
                    env("TEMPORAL_PG_HOST", "127.0.0.1"),
                    Integer.parseInt(env("TEMPORAL_PG_PORT", "5432")),
                    env("TEMPORAL_PG_USER", "temporal"),
                    env("TEMPORAL_PG_PASSWORD", "temporal"));
        }

        private static String env(String name, String fallback) {
            String value = System.getenv(name);
            return value == null || value.isBlank() ? fallback : value;
        }
    }

    /** A server process: which Temporal service it runs and its ports. */
    public record Node(String name, String service, int grpcPort, int membershipPort, int metricsPort, int httpPort) {}

    public static final String FRONTEND = "frontend";
    public static final String HISTORY = "history";

    /** Enough for a large sale on two history hosts, few enough that each host owns several. */
    private static final int SHARDS = 16;

    private static final int HISTORY_HOSTS = 2;

    /** A cluster with its frontend on {@code frontendPort} and every other port taken from {@code freePort}. */
    public static ClusterSpec of(
            String name, Path folder, int frontendPort, Postgres postgres, String namespace, IntSupplier freePort) {
        if (!name.matches("[a-z0-9_]{1,40}")) {
            throw new IllegalArgumentException("a cluster name is 1-40 of [a-z0-9_] (it names databases): " + name);
        }
        List<Node> nodes = new ArrayList<>();
        nodes.add(new Node(
                FRONTEND, FRONTEND, frontendPort, freePort.getAsInt(), freePort.getAsInt(), freePort.getAsInt()));
        for (String service : List.of("matching", "worker")) {
            nodes.add(new Node(service, service, freePort.getAsInt(), freePort.getAsInt(), freePort.getAsInt(), 0));
        }
        for (int host = 1; host <= HISTORY_HOSTS; host++) {
            nodes.add(new Node(
                    HISTORY + "-" + host, HISTORY, freePort.getAsInt(), freePort.getAsInt(), freePort.getAsInt(), 0));
        }
        return new ClusterSpec(name, folder.toAbsolutePath(), "127.0.0.1", SHARDS, postgres, namespace, nodes, 0);
    }

    /** The same cluster with its Web UI server on {@code port}. */
    public ClusterSpec withUi(int port) {
        return new ClusterSpec(name, folder, ip, shards, postgres, namespace, nodes, port);
    }

    /** {@code host:port} of the frontend, the address clients use. */
    public String address() {
        return ip + ":" + node(FRONTEND).grpcPort();
    }

    public Node node(String nodeName) {
        return nodes.stream()
                .filter(node -> node.name().equals(nodeName))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + nodeName + " in cluster " + name));
    }

    public List<Node> historyHosts() {
        return nodes.stream().filter(node -> node.service().equals(HISTORY)).toList();
    }

    /** The database of executions, shards, task queues and membership. */
    public String database() {
        return "temporal_" + name;
    }

    /** The database of SQL visibility (lists by search attribute, e.g. a sale's purchases). */
    public String visibilityDatabase() {
        return database() + "_visibility";
    }

    /** Folder of the configuration files, one per node ({@code --config DIR --env NODE}). */
    public Path configFolder() {
        return folder.resolve("config");
    }

    /** Connections per node to the default store: history does most of the writes. */
    private static final int HISTORY_CONNECTIONS = 20;

    private static final int OTHER_CONNECTIONS = 8;
    private static final int VISIBILITY_CONNECTIONS = 4;

    /** Writes every node's file, the dynamic configuration they share and the Web UI server's. */
    void write() throws IOException {
        Files.createDirectories(configFolder());
        for (Node node : nodes) {
            Files.writeString(configFolder().resolve(node.name() + ".yaml"), render(node));
        }
        Files.writeString(dynamicConfig(), DYNAMIC_CONFIG);
        if (uiPort() > 0) {
            Files.writeString(
                    Files.createDirectories(folder().resolve("ui")).resolve("ui.yaml"),
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
                            .formatted(address(), ip(), uiPort(), namespace()));
        }
    }

    private Path dynamicConfig() {
        return configFolder().resolve("dynamicconfig.yaml");
    }

    /** The configuration {@code node} starts with. */
    String render(Node node) {
        int connections = node.service().equals(HISTORY) ? HISTORY_CONNECTIONS : OTHER_CONNECTIONS;
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
                        shards(),
                        nested(datastore(database(), connections), 6),
                        nested(datastore(visibilityDatabase(), VISIBILITY_CONNECTIONS), 6),
                        ip(),
                        ip(),
                        node.metricsPort(),
                        nested(services(node), 2),
                        address(),
                        dynamicConfig());
    }

    /** {@code yaml} shifted right by {@code spaces}, to sit in a text block's line of its own. */
    private static String nested(String yaml, int spaces) {
        return yaml.indent(spaces).stripTrailing();
    }

    private String datastore(String database, int connections) {
        Postgres postgres = postgres();
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
    private String services(Node self) {
        return nodes().stream()
                .filter(node -> !node.service().equals(HISTORY)
                        || node.equals(self)
                        || (!self.service().equals(HISTORY)
                                && node.equals(historyHosts().get(0))))
                .map(ClusterSpec::service)
                .collect(Collectors.joining("\n"));
    }

    private static String service(Node node) {
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
