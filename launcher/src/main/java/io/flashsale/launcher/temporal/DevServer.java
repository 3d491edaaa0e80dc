package io.flashsale.launcher.temporal;

import io.flashsale.workflows.PurchaseSearchAttributes;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How to start a development Temporal server with the purchase search attributes registered: the
 * real one ({@code temporal server start-dev} of the {@link TemporalCli}) or, only where there is no
 * CLI and no Go to build it, Temporal's Java test server ({@link TestServerMain}: in memory, no Web
 * UI, no sticky-queue failover). The command is a plain argument list, so every launcher (the
 * {@code bin/flashsale} script, the end-to-end tests, the benchmark) starts and stops the server
 * process itself, by its own pid.
 */
public final class DevServer {

    /** What runs: the real server or the fallback. */
    public enum Kind {
        /** {@code temporal server start-dev}. */
        CLI,
        /** Temporal's Java test server, the fallback. */
        TEST_SERVER
    }

    /**
     * Where and how it listens. {@code uiPort} 0 runs it headless; {@code dbFile} null keeps
     * everything in memory (the CLI's default), else state survives a restart on the same file.
     */
    public record Options(String ip, int port, int uiPort, Path dbFile, String namespace) {

        public static Options onPort(int port) {
            return new Options("127.0.0.1", port, 0, null, "default");
        }

        public Options withUi(int uiPort) {
            return new Options(ip, port, uiPort, dbFile, namespace);
        }

        public Options withDbFile(Path dbFile) {
            return new Options(ip, port, uiPort, dbFile, namespace);
        }

        public String address() {
            return ip + ":" + port;
        }
    }

    /** A command ready to run, and what it starts. */
    public record Command(Kind kind, List<String> arguments) {}

    /** The hidden command of the launcher that runs {@link DevTemporalServer}: {@code test-server NAMESPACE PORT}. */
    public static final String TEST_SERVER = "test-server";

    private DevServer() {}

    /**
     * How to run the launcher's command line again: {@code java -jar <this jar>} where this JVM runs
     * one executable jar, else {@code java -cp <classpath> io.flashsale.launcher.LauncherMain}.
     */
    public static List<String> javaPrefix() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("java.class.path");
        if (classpath.endsWith(".jar") && !classpath.contains(File.pathSeparator)) {
            return List.of(java, "-jar", classpath);
        }
        return List.of(java, "-cp", classpath, "io.flashsale.launcher.LauncherMain");
    }

    /**
     * The real server when the CLI is there or can be built, else the test server (saying so
     * through {@code log}); {@code javaFallback} is how to run the command line of this JVM ({@link
     * #javaPrefix}), whose {@code test-server} command runs {@link DevTemporalServer}.
     */
    public static Command command(
            Options options, Optional<Path> cli, List<String> javaFallback, Consumer<String> log) {
        if (cli.isPresent()) {
            return new Command(Kind.CLI, cliCommand(cli.get(), options));
        }
        log.accept("falling back to Temporal's Java test server (in memory, no Web UI, no sticky-queue failover)");
        List<String> fallback = new ArrayList<>(javaFallback);
        fallback.addAll(List.of(TEST_SERVER, options.namespace(), "" + options.port()));
        return new Command(Kind.TEST_SERVER, fallback);
    }

    /** {@code temporal server start-dev} with this project's namespace and search attributes. */
    public static List<String> cliCommand(Path cli, Options options) {
        List<String> command = new ArrayList<>(List.of(
                cli.toString(),
                "server",
                "start-dev",
                "--ip",
                options.ip(),
                "--port",
                "" + options.port(),
                "--namespace",
                options.namespace(),
                "--log-level",
                "warn"));
        if (options.uiPort() > 0) {
            command.addAll(List.of("--ui-ip", options.ip(), "--ui-port", "" + options.uiPort()));
        } else {
            command.add("--headless");
        }
        if (options.dbFile() != null) {
            command.addAll(List.of("--db-filename", options.dbFile().toString()));
            // a write-ahead log, synced at checkpoints rather than at every commit: a killed server
            // loses nothing (the log is in the OS cache), a machine crash may lose the last commits
            command.addAll(List.of("--sqlite-pragma", "journal_mode=wal", "--sqlite-pragma", "synchronous=normal"));
        }
        // the search attributes are registered once at start: no refresh of their cache on every read
        command.addAll(List.of("--dynamic-config-value", "system.forceSearchAttributesCacheRefreshOnRead=false"));
        // one partition per task queue: a single server has no use for four, whose polls and tasks
        // are forwarded between partitions
        command.addAll(List.of(
                "--dynamic-config-value",
                "matching.numTaskqueueReadPartitions=1",
                "--dynamic-config-value",
                "matching.numTaskqueueWritePartitions=1"));
        PurchaseSearchAttributes.all()
                .forEach(key -> command.addAll(List.of("--search-attribute", key.getName() + "=Keyword")));
        return command;
    }
}
