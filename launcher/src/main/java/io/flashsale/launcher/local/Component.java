package io.flashsale.launcher.local;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.cluster.TemporalCluster;
import io.flashsale.launcher.temporal.DevServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A process {@code up} starts, or a worker of another build {@code worker start} runs beside it:
 * its name and what its command line holds, so a pid file that outlived its process never names
 * another one.
 *
 * @param process the process's name: its pid file, its log, how status and the messages call it
 * @param optional started only with an option ({@code --observe}, {@code --temporal cluster}) or a
 *     command: shown when it left a trace
 */
record Component(String process, boolean optional) {

    static final Component PROMETHEUS = new Component("prometheus", true);
    static final Component API = new Component("api", false);
    static final Component WORKER = new Component("worker", false);
    static final Component JAEGER = new Component("jaeger", true);
    static final Component TEMPORAL = new Component("temporal", false);
    static final Component TEMPORAL_FRONTEND = new Component("temporal-frontend", true);

    /** What {@code up} starts, in stop order (the start order is the reverse): the cluster's nodes last. */
    private static final List<Component> UP = Stream.concat(
                    Stream.of(PROMETHEUS, API, WORKER, JAEGER, TEMPORAL),
                    Stream.of("ui", "history-2", "history-1", "worker", "matching", "frontend")
                            .map(node -> node.equals("frontend")
                                    ? TEMPORAL_FRONTEND
                                    : new Component("temporal-" + node, true)))
            .toList();

    private static final String BUILD = "worker-";
    private static final String BUILD_ARGUMENT = "--flashsale.worker.deployment.build-id=";

    /** The worker of build {@code buildId} that {@code worker start} runs beside {@code up}'s. */
    static Component workerOfBuild(String buildId) {
        return new Component(BUILD + buildId, true);
    }

    /** Every component with a trace in {@code run} (a pid file or a log), in stop order: the workers of other builds with the worker. */
    static List<Component> all(Path run) {
        List<Component> all = new ArrayList<>(UP);
        all.addAll(all.indexOf(WORKER), builds(run));
        return all;
    }

    static Optional<Component> named(String name, Path run) {
        return all(run).stream().filter(c -> c.process.equals(name)).findFirst();
    }

    /** The app it runs, for the api and the workers. */
    FlashSaleStack.App app() {
        return process.startsWith(BUILD)
                ? FlashSaleStack.App.WORKER
                : FlashSaleStack.App.valueOf(process.toUpperCase(Locale.ROOT));
    }

    /** The worker's argument that makes it build {@code buildId} of its Worker Deployment. */
    static String buildArgument(String buildId) {
        return BUILD_ARGUMENT + buildId;
    }

    /** The build a worker's {@code commandLine} polls as, if versioned. */
    static Optional<String> buildOf(String commandLine) {
        int at = commandLine.indexOf(" " + BUILD_ARGUMENT);
        if (at < 0) {
            return Optional.empty();
        }
        String rest = commandLine.substring(at + 1 + BUILD_ARGUMENT.length());
        return Optional.of(rest.split(" ", 2)[0]);
    }

    /** Whether {@code commandLine} is this component's, started with {@code runFolder}. */
    boolean runs(String commandLine, Path runFolder) {
        return switch (process.startsWith(BUILD) ? "worker" : process) {
            case "api", "worker" -> commandLine.contains(" " + FlashSaleStack.marker(process) + " ");
            case "temporal" -> commandLine.contains(DevServer.marker(DevServer.Kind.CLI));
            case "prometheus" -> commandLine.contains("prometheus --config.file=" + runFolder.resolve("prometheus"));
            case "jaeger" -> commandLine.contains("jaeger --config " + runFolder.resolve("jaeger"));
            case "temporal-ui" -> commandLine.contains("ui-server");
            default -> commandLine.contains(TemporalCluster.marker(process.substring("temporal-".length())));
        };
    }

    /** The workers of other builds with a pid file in {@code run} or a log in its {@code logs}: a stopped one's log stays readable. */
    private static List<Component> builds(Path run) {
        return Stream.of(names(run, ".pid"), names(run.resolve("logs"), ".log"))
                .flatMap(List::stream)
                .distinct()
                .sorted()
                .map(name -> new Component(name, true))
                .toList();
    }

    /** The names of the files {@code worker-*SUFFIX} in {@code folder}, without the suffix. */
    private static List<String> names(Path folder, String suffix) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith(BUILD) && name.endsWith(suffix))
                    .map(name -> name.substring(0, name.length() - suffix.length()))
                    .toList();
        } catch (IOException noFolder) {
            return List.of();
        }
    }
}
