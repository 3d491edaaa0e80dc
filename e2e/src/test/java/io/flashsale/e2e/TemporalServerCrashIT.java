package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Fault matrix, the Temporal server itself dies: SIGKILL of the dev server (its state in a SQLite
 * file) while purchases wait for payment; buyers keep coming while it is down; the same server
 * starts again on the same file ({@link TemporalRestart}).
 */
class TemporalServerCrashIT extends RunningSystemTest {

    @Test
    void purchasesSurviveTheTemporalServerKilledMidSaleAndFinishExactlyOnce() throws Exception {
        TemporalRestart.sellThrough(api, system, new TemporalRestart.Outage() {
            @Override
            public void kill() throws Exception {
                long killedPid = system.temporal().process("temporal").pid();
                system.temporal().kill("temporal");
                assertThat(ProcessHandle.of(killedPid))
                        .as("the server process is gone")
                        .isEmpty();
            }

            @Override
            public void restart() throws Exception {
                system.temporal().restart("temporal");
            }
        });
    }
}
