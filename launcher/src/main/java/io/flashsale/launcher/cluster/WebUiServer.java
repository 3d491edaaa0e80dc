package io.flashsale.launcher.cluster;

import io.flashsale.launcher.temporal.GoTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Temporal's Web UI server for a cluster ({@code github.com/temporalio/ui-server/v2}, the version
 * the Temporal CLI v1.5.1 embeds in its dev server), built into {@code
 * .tools/temporal-ui-server-<version>/server}; configured in {@code ui/ui.yaml} of the cluster's
 * folder to talk to its frontend.
 */
public final class WebUiServer {

    public static final String VERSION = "v2.42.1";

    private static final String MODULE = "github.com/temporalio/ui-server/v2@" + VERSION;

    private WebUiServer() {}

    /** The binary, built when missing; empty (saying why through {@code log}) when it cannot be. */
    public static Optional<Path> locateOrBuild(Path projectRoot, Consumer<String> log) {
        GoTool tool = GoTool.inModule(
                projectRoot.resolve(".tools").resolve("temporal-ui-server-" + VERSION),
                MODULE,
                List.of("./cmd/server"),
                log);
        return tool.locateOrBuild("server").map(folder -> folder.resolve("server"));
    }

    /** Writes its configuration; {@code start} is then {@link #command}. */
    static void configure(ClusterSpec spec) throws IOException {
        Path folder = Files.createDirectories(spec.folder().resolve("ui"));
        Files.writeString(
                folder.resolve("ui.yaml"),
                """
                temporalGrpcAddress: "%s"
                host: "%s"
                port: %d
                enableUi: true
                defaultNamespace: "%s"
                # served over plain HTTP on loopback
                cors:
                  cookieInsecure: true
                """
                        .formatted(spec.address(), spec.ip(), spec.uiPort(), spec.namespace()));
    }

    static List<String> command(Path binary, ClusterSpec spec) {
        return List.of(binary.toString(), "--root", spec.folder().toString(), "--config", "ui", "--env", "ui", "start");
    }
}
