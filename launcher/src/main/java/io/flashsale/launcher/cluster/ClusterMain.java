package io.flashsale.launcher.cluster;

import io.flashsale.launcher.temporal.DevTemporalMain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code java -jar launcher-exec.jar COMMAND ...}, for launchers that are not Java (the
 * {@code bin/flashsale} script):
 *
 * <ul>
 *   <li>{@code prepare --root DIR --folder DIR [--name N] [--port P] [--ui-port U] [--shards S]
 *       [--history-hosts H] [--namespace NS]}: builds what is missing ({@link ServerBinaries},
 *       {@link WebUiServer}), writes the configuration, creates or upgrades the databases, and
 *       prints one line per node (the Web UI server {@code ui} last, with a UI port): its name, a
 *       tab, then its command with arguments separated by tabs. What it does goes to stderr.
 *   <li>{@code ready --root DIR --folder DIR ...} (the same options): waits until the frontend
 *       answers, registers the namespace and search attributes, exits 0 once it takes purchases.
 *   <li>{@code metrics ...} (the same options): prints each node's Prometheus endpoint
 *       ({@code host:port}), one a line.
 * </ul>
 */
public final class ClusterMain {

    private ClusterMain() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("logback.configurationFile", "launcher-logback.xml");
        if (args.length == 0) {
            fail(
                    "usage: prepare|ready|metrics --root DIR --folder DIR [--name N] [--port P] [--shards S] [--history-hosts H]");
        }
        Map<String, String> options =
                DevTemporalMain.options(Arrays.asList(args).subList(1, args.length));
        Path root = Path.of(options.getOrDefault("--root", "."));
        switch (args[0]) {
            case "prepare" -> prepare(root, options);
            case "ready" -> ready(root, options);
            case "metrics" -> metrics(spec(options));
            default -> fail("unknown command " + args[0]);
        }
    }

    private static void prepare(Path root, Map<String, String> options) throws Exception {
        TemporalCluster cluster =
                new TemporalCluster(spec(options), ServerBinaries.locateOrBuild(root, System.err::println));
        cluster.prepare(System.err::println);
        for (ClusterSpec.Node node : cluster.spec().nodes()) {
            System.out.println(node.name() + "\t" + String.join("\t", cluster.command(node)));
        }
        if (cluster.spec().uiPort() > 0) {
            WebUiServer.locateOrBuild(root, System.err::println)
                    .ifPresent(ui -> System.out.println("ui\t" + String.join("\t", cluster.uiCommand(ui))));
        }
    }

    private static void ready(Path root, Map<String, String> options) throws Exception {
        TemporalCluster cluster =
                new TemporalCluster(spec(options), ServerBinaries.locateOrBuild(root, System.err::println));
        long seconds = Long.parseLong(options.getOrDefault("--timeout", "180"));
        cluster.awaitReady(Duration.ofSeconds(seconds), () -> true);
    }

    private static void metrics(ClusterSpec spec) {
        spec.nodes().forEach(node -> System.out.println(spec.ip() + ":" + node.metricsPort()));
    }

    /**
     * The cluster of these options. The ports other than the frontend's follow 10000 above it
     * (17234, 17235, ... for the default 7233), the same on every call, so a second {@code up}
     * writes the same configuration.
     */
    static ClusterSpec spec(Map<String, String> options) {
        int port = Integer.parseInt(options.getOrDefault("--port", "7233"));
        int[] next = {port + 10000};
        return ClusterSpec.of(
                        options.getOrDefault("--name", "dev"),
                        Path.of(options.getOrDefault("--folder", ".run/temporal-cluster")),
                        port,
                        Integer.parseInt(options.getOrDefault("--shards", "16")),
                        Integer.parseInt(options.getOrDefault("--history-hosts", "2")),
                        ClusterSpec.Postgres.fromEnvironment(),
                        options.getOrDefault("--namespace", "default"),
                        () -> next[0]++)
                .withUi(Integer.parseInt(options.getOrDefault("--ui-port", "0")));
    }

    private static void fail(String message) {
        System.err.println("launcher: " + message);
        System.exit(2);
    }
}
