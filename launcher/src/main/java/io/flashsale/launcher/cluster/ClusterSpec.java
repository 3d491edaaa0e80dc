package io.flashsale.launcher.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

/**
 * One production-like Temporal cluster: its name (which names its two PostgreSQL databases), its
 * folder, its server processes on loopback (frontend, matching, worker, two history hosts) and the
 * port of its Web UI server (0: none). {@link #write} gives each node {@code config/NODE.yaml},
 * which {@code temporal-server --config config --env NODE} reads: the same cluster, the node's own ports.
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

        /** {@code TEMPORAL_PG_HOST}, {@code _PORT}, {@code _USER} and {@code _PASSWORD}; unset or blank, stores.sh's defaults. */
        public static Postgres fromEnvironment() {
            return new Postgres(
                    setting("TEMPORAL_PG_HOST", "127.0.0.1"),
                    Integer.parseInt(setting("TEMPORAL_PG_PORT", "5432")),
                    setting("TEMPORAL_PG_USER", "temporal"),
                    setting("TEMPORAL_PG_PASSWORD", "temporal"));
        }

        private static String setting(String variable, String fallback) {
            String value = System.getenv(variable);
            return value == null || value.isBlank() ? fallback : value.trim();
        }
    }

    /** A server process: which Temporal service it runs and its ports (an HTTP port on the frontend only). */
    public record Node(String name, String service, int grpcPort, int membershipPort, int metricsPort, int httpPort) {}

    public static final String FRONTEND = "frontend";
    public static final String HISTORY = "history";

    /** Enough for a large sale on two history hosts, few enough that each host owns several. */
    private static final int SHARDS = 16;

    /** Connections per node to the default store: history does most of the writes. */
    private static final int HISTORY_CONNECTIONS = 20;

    private static final int OTHER_CONNECTIONS = 8;
    private static final int VISIBILITY_CONNECTIONS = 4;

    /** A cluster with its frontend on {@code frontendPort} and every other port taken from {@code freePort}. */
    public static ClusterSpec of(
            String name, Path folder, int frontendPort, Postgres postgres, String namespace, IntSupplier freePort) {
        if (!name.matches("[a-z0-9_]{1,40}")) {
            throw new IllegalArgumentException("a cluster name is 1-40 of [a-z0-9_] (it names databases): " + name);
        }
        List<Node> nodes = new ArrayList<>();
        for (String node : List.of(FRONTEND, "matching", "worker", HISTORY + "-1", HISTORY + "-2")) {
            boolean frontend = node.equals(FRONTEND);
            int grpc = frontend ? frontendPort : freePort.getAsInt();
            int membership = freePort.getAsInt();
            int metrics = freePort.getAsInt();
            int http = frontend ? freePort.getAsInt() : 0;
            nodes.add(new Node(node, node.replaceFirst("-\\d$", ""), grpc, membership, metrics, http));
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

    /** The database of executions, shards and membership; with {@code _visibility} appended, SQL visibility's. */
    public String database() {
        return "temporal_" + name;
    }

    /** {@code file} of the configuration folder ({@code --config config}). */
    private Path config(String file) {
        return folder.resolve("config/" + file);
    }

    /** Writes every node's file, the dynamic configuration they share and the Web UI server's. */
    void write() throws IOException {
        Files.createDirectories(config(""));
        for (Node node : nodes) {
            Files.writeString(config(node.name() + ".yaml"), render(node));
        }
        Files.writeString(config("dynamicconfig.yaml"), DYNAMIC_CONFIG);
        if (uiPort > 0) {
            Files.writeString(
                    Files.createDirectories(folder.resolve("ui")).resolve("ui.yaml"),
                    """
                    temporalGrpcAddress: "%s"
                    host: "%s"
                    port: %d
                    enableUi: true
                    defaultNamespace: "%s"
                    cors: {cookieInsecure: true} # served over plain HTTP on loopback
                    """
                            .formatted(address(), ip, uiPort, namespace));
        }
    }

    /** The configuration {@code node} starts with. */
    String render(Node node) {
        int connections = node.service().equals(HISTORY) ? HISTORY_CONNECTIONS : OTHER_CONNECTIONS;
        return """
                log: {stdout: true, level: warn}
                persistence:
                  defaultStore: default
                  visibilityStore: visibility
                  numHistoryShards: %d
                  datastores:
                    default: %s
                    visibility: %s
                global:
                  membership: {maxJoinDuration: 30s, broadcastAddress: "%s"}
                  metrics:
                    prometheus: {framework: tally, timerType: histogram, listenAddress: "%s:%d"}
                services:
                %s
                clusterMetadata:
                  enableGlobalNamespace: false
                  failoverVersionIncrement: 10
                  masterClusterName: active
                  currentClusterName: active
                  clusterInformation:
                    active: {enabled: true, initialFailoverVersion: 1, rpcName: frontend, rpcAddress: "%s"}
                dcRedirectionPolicy: {policy: noop}
                dynamicConfigClient: {filepath: "%s", pollInterval: 10s}
                """
                .formatted(
                        shards,
                        datastore(database(), connections),
                        datastore(database() + "_visibility", VISIBILITY_CONNECTIONS),
                        ip,
                        ip,
                        node.metricsPort(),
                        services(node),
                        address(),
                        config("dynamicconfig.yaml"));
    }

    private String datastore(String database, int connections) {
        return """
                {sql: {pluginName: postgres12, databaseName: "%s", connectAddr: "%s:%d", connectProtocol: tcp, \
                user: "%s", password: "%s", maxConns: %6$d, maxIdleConns: %6$d, maxConnLifetime: 1h}}"""
                .formatted(
                        database, postgres.host(), postgres.port(), postgres.user(), postgres.password(), connections);
    }

    /** Every service once, the history entry this node's own on a history host (the others come through membership). */
    private String services(Node self) {
        return nodes.stream()
                .filter(node -> !node.service().equals(HISTORY)
                        || node.equals(self)
                        || (!self.service().equals(HISTORY)
                                && node.equals(historyHosts().get(0))))
                .map(node -> "  %s: {rpc: {grpcPort: %d, membershipPort: %d, bindOnLocalHost: true%s}}"
                        .formatted(
                                node.service(),
                                node.grpcPort(),
                                node.membershipPort(),
                                node.httpPort() > 0 ? ", httpPort: " + node.httpPort() : ""))
                .collect(Collectors.joining("\n"));
    }

    /** Ids as long as purchase ids may be; search attributes cached, not read on every query (registered once). */
    private static final String DYNAMIC_CONFIG =
            """
            limit.maxIDLength: [{value: 255}]
            system.forceSearchAttributesCacheRefreshOnRead: [{value: false}]
            frontend.enableUpdateWorkflowExecution: [{value: true}]
            """;
}
