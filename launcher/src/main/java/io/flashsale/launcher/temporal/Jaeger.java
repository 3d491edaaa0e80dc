package io.flashsale.launcher.temporal;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Jaeger, the tracing backend of {@code bin/flashsale up --observe} and of the tracing test: one
 * process that receives spans over OTLP, keeps them in memory and serves its UI and query API
 * (configuration: deploy/jaeger/config.yaml).
 */
public final class Jaeger {

    public static final String MODULE = "github.com/jaegertracing/jaeger@v1.76.0";

    private Jaeger() {}

    /**
     * The file named by {@code JAEGER_BINARY}, else the one built into {@code .tools/} (its go.mod has
     * a {@code replace} that {@code go install} refuses); empty, the reason logged, when it cannot be built.
     */
    public static Optional<Path> locateOrBuild(Path projectRoot, Consumer<String> log) {
        return GoTool.configured("JAEGER_BINARY")
                .or(() -> GoTool.inModule(projectRoot, "jaeger", MODULE, List.of("./cmd/jaeger"), log)
                        .program("jaeger"));
    }
}
