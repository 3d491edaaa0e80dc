package io.flashsale.launcher.temporal;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Jaeger, the tracing backend of {@code bin/flashsale up --observe} and of the tracing test: one
 * process that receives spans over OTLP, keeps them in memory and serves its UI and query API
 * (configuration: deploy/jaeger/config.yaml). Found, in this order: the file named by {@code
 * JAEGER_BINARY}; the one built earlier into the project's git-ignored {@code .tools/}; else built
 * there from its Go module ({@link GoTool#inModule}: its go.mod has a {@code replace} that {@code
 * go install} refuses).
 */
public final class Jaeger {

    public static final String MODULE = "github.com/jaegertracing/jaeger@v1.76.0";

    private final GoTool tool;

    public Jaeger(Path projectRoot, Consumer<String> log) {
        String version = MODULE.substring(MODULE.indexOf('@') + 1);
        this.tool = GoTool.inModule(
                projectRoot.resolve(".tools").resolve("jaeger-" + version), MODULE, List.of("./cmd/jaeger"), log);
    }

    /** The binary, built when needed; empty (with the reason logged) when it cannot be. */
    public Optional<Path> locateOrBuild() {
        Optional<Path> configured = GoTool.configured("JAEGER_BINARY");
        return configured.isPresent()
                ? configured
                : tool.locateOrBuild("jaeger").map(folder -> tool.binary("jaeger"));
    }
}
