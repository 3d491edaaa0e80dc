package io.flashsale.launcher.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.launcher.FlashSaleStack;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pid file counts only while its pid runs the component's command: never another process that got the pid. */
class ComponentTest {

    private static final Path RUN = Path.of("/checkout/.run");

    @Test
    void knowsEachAppAndEachWorkerBuildByTheNameOnItsCommandLine() {
        String api = "/usr/bin/java -Dflashsale.process=api -XX:TieredStopAtLevel=1 -jar"
                + " /checkout/api/target/api-0.1.0-exec.jar --server.port=8080 ";
        String buildB =
                "/usr/bin/java -Dflashsale.process=worker-b -jar /checkout/worker/target/worker-0.1.0-exec.jar ";

        assertThat(Component.API.runs(api, RUN)).isTrue();
        assertThat(Component.WORKER.runs(api, RUN)).isFalse();
        assertThat(Component.API.runs("sleep 300", RUN)).isFalse();
        assertThat(Component.workerOfBuild("b").runs(buildB, RUN)).isTrue();
        assertThat(Component.WORKER.runs(buildB, RUN)).isFalse();
        assertThat(Component.workerOfBuild("b2").runs(buildB, RUN)).isFalse();
        assertThat(Component.workerOfBuild("b").app()).isEqualTo(FlashSaleStack.App.WORKER);
    }

    @Test
    void findsTheWorkersOfOtherBuildsByTheirPidFilesAndStopsThemWithTheWorker(@TempDir Path run) throws Exception {
        Files.writeString(run.resolve("worker-b.pid"), "1\n");

        assertThat(Component.all(run))
                .extracting(Component::process)
                .containsSubsequence("api", "worker-b", "worker", "temporal");
        assertThat(Component.named("worker-b", run)).contains(Component.workerOfBuild("b"));
    }

    @Test
    void keepsTheLogOfAStoppedBuildReadable(@TempDir Path run) throws Exception {
        Files.createDirectories(run.resolve("logs"));
        Files.writeString(run.resolve("logs").resolve("worker-a.log"), "stopped\n");

        assertThat(Component.named("worker-a", run)).contains(Component.workerOfBuild("a"));
    }

    @Test
    void knowsTheDevServerByItsCommand() {
        assertThat(Component.TEMPORAL.runs("/checkout/.tools/temporal server start-dev --port 7233", RUN))
                .isTrue();
        assertThat(Component.TEMPORAL.runs("temporal workflow list", RUN)).isFalse();
    }

    @Test
    void knowsPrometheusAndJaegerByTheirRunFolder() {
        assertThat(Component.PROMETHEUS.runs("prometheus --config.file=/checkout/.run/prometheus/prometheus.yml", RUN))
                .isTrue();
        assertThat(Component.PROMETHEUS.runs("prometheus --config.file=/etc/prometheus/prometheus.yml", RUN))
                .isFalse();
        assertThat(Component.JAEGER.runs("jaeger --config /elsewhere/jaeger/config.yaml", RUN))
                .isFalse();
    }

    @Test
    void knowsEachClusterNodeByItsEnvironment() {
        String history = "temporal-server --root x --config config --env history-1 --allow-no-auth start";

        assertThat(Component.named("temporal-history-1", RUN).orElseThrow().runs(history, RUN))
                .isTrue();
        assertThat(Component.named("temporal-history-2", RUN).orElseThrow().runs(history, RUN))
                .isFalse();
    }
}
