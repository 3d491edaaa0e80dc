package io.flashsale.launcher.temporal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The Temporal CLI, whose {@code temporal server start-dev} is the real Temporal server (SQLite
 * persistence, Web UI) for development, tests and the benchmark. Found, in this order: the file
 * named by {@code TEMPORAL_CLI}; the one built earlier into the project's git-ignored {@code
 * .tools/}; {@code temporal} on the {@code PATH}; else built there from its Go module ({@link
 * GoTool}).
 */
public final class TemporalCli {

    /** v1.6.0 and later carry a go.mod {@code replace} that {@code go install} refuses. */
    public static final String MODULE = "github.com/temporalio/cli/cmd/temporal@v1.5.1";

    private final GoTool tool;

    public TemporalCli(Path projectRoot, Consumer<String> log) {
        String version = MODULE.substring(MODULE.indexOf('@') + 1);
        this.tool = new GoTool(projectRoot.resolve(".tools").resolve("temporal-cli-" + version), List.of(MODULE), log);
    }

    /** The CLI binary, built when needed; empty (with the reason logged) when there is none. */
    public Optional<Path> locateOrBuild() {
        Optional<Path> found = GoTool.configured("TEMPORAL_CLI").or(this::built).or(() -> GoTool.onPath("temporal"));
        return found.isPresent() ? found : tool.locateOrBuild("temporal").map(folder -> binary());
    }

    private Optional<Path> built() {
        return Optional.of(binary()).filter(Files::isExecutable);
    }

    /** Where it is built: {@code .tools/temporal-cli-<version>/temporal}. */
    Path binary() {
        return tool.binary("temporal");
    }
}
