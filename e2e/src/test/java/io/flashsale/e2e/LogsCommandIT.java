package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/flashsale logs} over a run directory of its own ({@code FLASHSALE_RUN_DIR}) holding the
 * logs {@code up} would have written: what it prints of one log, of all of them, what it follows, and
 * its errors.
 */
class LogsCommandIT {

    private Path logs;
    private Map<String, String> environment;

    @BeforeEach
    void runDirectory() throws Exception {
        Path parent = Files.createDirectories(Path.of("target", "e2e-logs", "launcher"));
        Path run = Files.createTempDirectory(parent, "run-logs-").toAbsolutePath();
        logs = Files.createDirectories(run.resolve("logs"));
        environment = Map.of("FLASHSALE_RUN_DIR", run.toString());
        Files.writeString(logs.resolve("api.log"), "api: Started ApiApplication\napi: admission ready\n");
        Files.writeString(logs.resolve("temporal.log"), "temporal: server started\n");
    }

    @Test
    void printsTheLogOfTheProcessNamed() throws Exception {
        Files.writeString(logs.resolve("worker.log"), "worker: polling\n");

        Launcher.Run api = Launcher.run(environment, "", "logs", "api");

        assertThat(api.exitCode()).as(api.output()).isZero();
        assertThat(api.output()).isEqualTo("api: Started ApiApplication\napi: admission ready\n");
    }

    @Test
    void printsEveryLogUnderItsNameAndSaysWhichIsMissing() throws Exception {
        Launcher.Run all = Launcher.run(environment, "", "logs");

        assertThat(all.exitCode()).as(all.output()).isZero();
        assertThat(all.output())
                .containsSubsequence(
                        "==> api (",
                        "api: Started ApiApplication\napi: admission ready\n",
                        "==> worker: no log (",
                        "==> temporal (",
                        "temporal: server started\n");
    }

    @Test
    void failsForAnUnknownNameAndForAMissingLog() throws Exception {
        Launcher.Run unknown = Launcher.run(environment, "", "logs", "database");
        Launcher.Run missing = Launcher.run(environment, "", "logs", "worker");

        assertThat(unknown.exitCode()).as(unknown.output()).isEqualTo(1);
        assertThat(unknown.output())
                .contains(
                        "logs: unknown process 'database' (api, worker, worker-BUILD, temporal, prometheus, jaeger, or a"
                                + " cluster node");
        assertThat(missing.exitCode()).as(missing.output()).isEqualTo(1);
        assertThat(missing.output()).contains("logs: no log of worker (").contains("worker.log is missing");
    }

    @Test
    void followsWhatIsAppendedUntilStopped() throws Exception {
        try (Launcher.Running following = Launcher.start(environment, "logs", "api", "-f")) {
            following.awaitOutput("api: admission ready");

            Files.writeString(logs.resolve("api.log"), "api: sale phone1 sold out\n", StandardOpenOption.APPEND);

            following.awaitOutput("api: sale phone1 sold out");
            assertThat(following.processes().get(following.name()).isAlive()).isTrue();
        }
    }
}
