package io.flashsale.launcher.cluster;

import io.flashsale.launcher.Processes;
import io.flashsale.launcher.temporal.GoTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The cluster's programs in {@code folder}: {@code server}, {@code sql} (temporal-sql-tool) and
 * {@code tdbg} (the server's own debugging tool: membership, shard owners), built from the Go module
 * {@code go.temporal.io/server} into {@code .tools/temporal-server-<version>/} or taken from {@code
 * TEMPORAL_SERVER_BIN}, a folder holding those three; and the schema work done with the sql tool.
 */
public record ServerBinaries(Path folder) {

    /** The server the Temporal CLI v1.5.1 embeds, so the dev server and the cluster run the same engine. */
    public static final String VERSION = "v1.29.1";

    private static final String MODULE = "go.temporal.io/server@" + VERSION;

    /** The Web UI server the same CLI embeds in its dev server. */
    private static final String UI_MODULE = "github.com/temporalio/ui-server/v2@v2.42.1";

    private static final String EMBEDDED_SCHEMA = "postgresql/v12/";

    /** Found or built; fails saying why when neither works. */
    public static ServerBinaries locateOrBuild(Path projectRoot, Consumer<String> log) {
        String configured = System.getenv("TEMPORAL_SERVER_BIN");
        if (configured != null && !configured.isBlank()) {
            return new ServerBinaries(Path.of(configured));
        }
        return GoTool.inModule(
                        projectRoot,
                        "temporal-server",
                        MODULE,
                        List.of("./cmd/server", "./cmd/tools/sql", "./cmd/tools/tdbg"),
                        log)
                .locateOrBuild("server", "sql", "tdbg")
                .map(ServerBinaries::new)
                .orElseThrow(() -> new IllegalStateException("no temporal-server: the build of " + MODULE
                        + " failed or there is no Go (or set TEMPORAL_SERVER_BIN)"));
    }

    /** The Web UI server, built when missing; empty (saying why through {@code log}) when it cannot be. */
    static Optional<Path> webUi(Path projectRoot, Consumer<String> log) {
        return GoTool.inModule(projectRoot, "temporal-ui-server", UI_MODULE, List.of("./cmd/server"), log)
                .program("server");
    }

    public Path server() {
        return folder.resolve("server");
    }

    public Path tdbg() {
        return folder.resolve("tdbg");
    }

    /**
     * Creates the cluster's two databases and brings them to the server's latest schema version from
     * the schema files embedded in the sql tool, as an operator upgrading a cluster would; on
     * databases that exist already it only applies what is missing.
     */
    void applySchema(ClusterSpec spec, Consumer<String> log) throws IOException, InterruptedException {
        applySchema(spec, spec.database(), EMBEDDED_SCHEMA + "temporal", log);
        applySchema(spec, spec.visibilityDatabase(), EMBEDDED_SCHEMA + "visibility", log);
    }

    /** Drops both databases (a test's cluster, once it has stopped). */
    void dropDatabases(ClusterSpec spec) throws IOException, InterruptedException {
        for (String database : List.of(spec.database(), spec.visibilityDatabase())) {
            sqlTool(spec, database, "drop-database", "--force");
        }
    }

    private void applySchema(ClusterSpec spec, String database, String schema, Consumer<String> log)
            throws IOException, InterruptedException {
        log.accept("schema " + schema + " on database " + database);
        String created = sqlTool(spec, database, "create-database");
        if (!created.isEmpty() && !created.contains("already exists")) {
            throw new IllegalStateException("cannot create database " + database + ": " + created);
        }
        // version 0.0 only creates the versioning tables; update-schema applies every version after it
        String failure = sqlTool(spec, database, "setup-schema", "-v", "0.0");
        if (failure.isEmpty()) {
            failure = sqlTool(spec, database, "update-schema", "--schema-name", schema);
        }
        if (!failure.isEmpty()) {
            throw new IllegalStateException("temporal-sql-tool failed on " + database + ": " + failure);
        }
    }

    /** Runs the sql tool; empty when it exited 0, else its output (in {@code sql-tool.log} of the cluster's folder). */
    private String sqlTool(ClusterSpec spec, String database, String... command)
            throws IOException, InterruptedException {
        ClusterSpec.Postgres postgres = spec.postgres();
        List<String> arguments = new ArrayList<>(List.of(
                folder.resolve("sql").toString(),
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
        arguments.addAll(List.of(command));
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
