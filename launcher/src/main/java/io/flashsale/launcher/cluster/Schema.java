package io.flashsale.launcher.cluster;

import io.flashsale.launcher.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The cluster's two databases, created and brought to the server's latest schema version by {@code
 * temporal-sql-tool} from the schema files embedded in it (the module's own {@code
 * schema/postgresql/v12}), as an operator upgrading a cluster would. Running it on databases that
 * exist already only applies what is missing.
 */
final class Schema {

    private static final String EMBEDDED = "postgresql/v12/";

    private Schema() {}

    static void apply(ServerBinaries binaries, ClusterSpec spec, Consumer<String> log)
            throws IOException, InterruptedException {
        apply(binaries, spec, spec.database(), EMBEDDED + "temporal", log);
        apply(binaries, spec, spec.visibilityDatabase(), EMBEDDED + "visibility", log);
    }

    /** Drops both databases (a test's cluster, once it has stopped). */
    static void drop(ServerBinaries binaries, ClusterSpec spec) throws IOException, InterruptedException {
        for (String database : List.of(spec.database(), spec.visibilityDatabase())) {
            run(binaries, spec, database, List.of("drop-database", "--force"));
        }
    }

    private static void apply(
            ServerBinaries binaries, ClusterSpec spec, String database, String schema, Consumer<String> log)
            throws IOException, InterruptedException {
        log.accept("schema " + schema + " on database " + database);
        String created = run(binaries, spec, database, List.of("create-database"));
        if (!created.isEmpty() && !created.contains("already exists")) {
            throw new IllegalStateException("cannot create database " + database + ": " + created);
        }
        // version 0.0 only creates the versioning tables; update-schema applies every version after it
        require(run(binaries, spec, database, List.of("setup-schema", "-v", "0.0")), database);
        require(run(binaries, spec, database, List.of("update-schema", "--schema-name", schema)), database);
    }

    private static void require(String failure, String database) {
        if (!failure.isEmpty()) {
            throw new IllegalStateException("temporal-sql-tool failed on " + database + ": " + failure);
        }
    }

    /** Runs the tool; empty when it exited 0, else its output (in {@code sql-tool.log} of the cluster's folder). */
    private static String run(ServerBinaries binaries, ClusterSpec spec, String database, List<String> command)
            throws IOException, InterruptedException {
        ClusterSpec.Postgres postgres = spec.postgres();
        List<String> arguments = new ArrayList<>(List.of(
                binaries.sqlTool().toString(),
                "--plugin",
                "postgres12",
                "--ep",
                postgres.host(),
                "-p",
                "" + postgres.port(),
                "-u",
                postgres.user(),
                "--db",
                database));
        arguments.addAll(command);
        Path log = spec.folder().resolve("sql-tool.log");
        Files.deleteIfExists(log);
        int exit = Processes.exec(arguments, Map.of("SQL_PASSWORD", postgres.password()), log, Duration.ofMinutes(2));
        return exit == 0
                ? ""
                : exit < 0
                        ? "timed out: " + String.join(" ", command)
                        : Files.readString(log).strip();
    }
}
