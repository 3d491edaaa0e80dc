package io.flashsale.launcher.local;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A process {@code bin/flashsale up} starts, in stop order (the start order is the reverse): its
 * name (of its pid file and log) and what its command line holds, so a pid file that outlived its
 * process never names another one.
 */
enum Component {
    PROMETHEUS("prometheus", true),
    API("api", false),
    WORKER("worker", false),
    JAEGER("jaeger", true),
    TEMPORAL("temporal", false),
    TEMPORAL_UI("temporal-ui", true),
    TEMPORAL_HISTORY_2("temporal-history-2", true),
    TEMPORAL_HISTORY_1("temporal-history-1", true),
    TEMPORAL_WORKER("temporal-worker", true),
    TEMPORAL_MATCHING("temporal-matching", true),
    TEMPORAL_FRONTEND("temporal-frontend", true);

    /** The nodes of the Temporal cluster ({@code up --temporal cluster}), in stop order. */
    static final List<Component> CLUSTER = List.of(
            TEMPORAL_UI, TEMPORAL_HISTORY_2, TEMPORAL_HISTORY_1, TEMPORAL_WORKER, TEMPORAL_MATCHING, TEMPORAL_FRONTEND);

    /** The process's name: its pid file, its log, how status and the messages call it. */
    final String process;

    /** Started only with an option ({@code --observe}, {@code --temporal cluster}): shown when it left a trace. */
    final boolean optional;

    Component(String name, boolean optional) {
        this.process = name;
        this.optional = optional;
    }

    static Optional<Component> named(String name) {
        return Arrays.stream(values()).filter(c -> c.process.equals(name)).findFirst();
    }

    /** The cluster node of {@code node} (a name of {@code ClusterSpec}, or {@code ui}). */
    static Component clusterNode(String node) {
        return named("temporal-" + node).orElseThrow();
    }

    /** Whether {@code commandLine} is this component's, started with {@code runFolder}. */
    boolean runs(String commandLine, Path runFolder) {
        return switch (this) {
            case API -> commandLine.matches(".*api-.*-exec\\.jar.*");
            case WORKER -> commandLine.matches(".*worker-.*-exec\\.jar.*");
            case TEMPORAL -> commandLine.contains("server start-dev") || commandLine.contains(" test-server ");
            case PROMETHEUS -> commandLine.contains("prometheus --config.file=" + runFolder.resolve("prometheus"));
            case JAEGER -> commandLine.contains("jaeger --config " + runFolder.resolve("jaeger"));
            case TEMPORAL_UI -> commandLine.contains("ui-server");
            default -> commandLine.contains("--env " + process.substring("temporal-".length()) + " --allow-no-auth");
        };
    }
}
