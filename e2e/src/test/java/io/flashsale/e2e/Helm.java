package io.flashsale.e2e;

import io.flashsale.launcher.temporal.GoTool;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Helm, built from its Go module into the project's git-ignored {@code .tools/helm-<version>} by
 * {@link GoTool} (minutes the first time, then found there). Without Go it cannot be built, and the
 * test fails saying so: the checks of the chart are part of {@code ./mvnw -B verify}.
 */
final class Helm {

    static final String MODULE = "helm.sh/helm/v4@v4.3.2";

    private final Path binary;

    private Helm(Path binary) {
        this.binary = binary;
    }

    static Helm locateOrBuild(Path root) {
        return new Helm(GoTool.inModule(root, "helm", MODULE, List.of("./cmd/helm"), System.err::println)
                .program("helm")
                .orElseThrow(() -> cannotBuild(MODULE)));
    }

    /** Why a Go program of the checks is missing: no Go, or its build failed (logged above). */
    static AssertionError cannotBuild(String what) {
        return new AssertionError("cannot build " + what + ": install Go (go.dev/doc/install, into /usr/local/go"
                + " or GOROOT), or see the build's output above");
    }

    /** {@code helm lint chart arguments...}. */
    ToolRun lint(Path chart, List<String> arguments) throws IOException, InterruptedException {
        return run(List.of("lint", chart.toString()), arguments);
    }

    /** {@code helm template flashsale chart arguments...}: the rendered objects, or why not. */
    ToolRun template(Path chart, List<String> arguments) throws IOException, InterruptedException {
        return run(List.of("template", "flashsale", chart.toString()), arguments);
    }

    private ToolRun run(List<String> command, List<String> arguments) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>();
        line.add(binary.toString());
        line.addAll(command);
        line.addAll(arguments);
        return ToolRun.of(line, Duration.ofMinutes(1));
    }
}
