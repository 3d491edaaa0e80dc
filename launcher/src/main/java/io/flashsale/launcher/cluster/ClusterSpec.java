package io.flashsale.launcher.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * One production-like Temporal cluster: its name (which names its two PostgreSQL databases), the
 * folder that holds its configuration and state, the number of history shards, and one {@link
 * Node} per server process on loopback (frontend, matching, worker, then the history hosts), and
 * the port of its Web UI server (0: none).
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
}
