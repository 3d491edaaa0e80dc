package io.flashsale.launcher.cluster;

import io.flashsale.launcher.temporal.GoTool;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code temporal-server}, {@code temporal-sql-tool} and {@code tdbg} (the server's own debugging
 * tool: membership, shard owners), built from the Go module {@code go.temporal.io/server} into
 * {@code .tools/temporal-server-<version>/} (as {@code server}, {@code sql} and {@code tdbg}), or
 * taken from {@code TEMPORAL_SERVER_BIN}, a folder holding those three.
 */
public final class ServerBinaries {

    /** The server the Temporal CLI v1.5.1 embeds, so the dev server and the cluster run the same engine. */
    public static final String VERSION = "v1.29.1";

    private static final String MODULE = "go.temporal.io/server";

    private final Path folder;

    private ServerBinaries(Path folder) {
        this.folder = folder;
    }

    /** The binaries in {@code folder}, as they are. */
    static ServerBinaries in(Path folder) {
        return new ServerBinaries(folder);
    }

    /** Found or built; fails saying why when neither works. */
    public static ServerBinaries locateOrBuild(Path projectRoot, Consumer<String> log) {
        String configured = System.getenv("TEMPORAL_SERVER_BIN");
        if (configured != null && !configured.isBlank()) {
            return in(Path.of(configured));
        }
        GoTool tool = GoTool.inModule(
                projectRoot.resolve(".tools").resolve("temporal-server-" + VERSION),
                MODULE + "@" + VERSION,
                List.of("./cmd/server", "./cmd/tools/sql", "./cmd/tools/tdbg"),
                log);
        return tool.locateOrBuild("server", "sql", "tdbg")
                .map(ServerBinaries::new)
                .orElseThrow(() -> new IllegalStateException("no temporal-server: the build of " + MODULE + "@"
                        + VERSION + " failed or there is no Go (or set TEMPORAL_SERVER_BIN)"));
    }

    public Path server() {
        return folder.resolve("server");
    }

    public Path sqlTool() {
        return folder.resolve("sql");
    }

    public Path tdbg() {
        return folder.resolve("tdbg");
    }
}
