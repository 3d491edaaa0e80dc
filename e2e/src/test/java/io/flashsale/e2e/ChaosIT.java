package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.bench.chaos.ChaosRun;
import io.flashsale.bench.chaos.Nemesis;
import io.flashsale.bench.chaos.Op;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The chaos run in the build: 90 seconds of steady load on three sales through the crashes of a
 * fixed seed's schedule (bin/flashsale chaos --duration 90s --seed 11 --rate 15), then the checker
 * over the whole history. The faults must have happened (each target's pid killed and a new one in
 * its place) and the load must have bought and paid, or a quiet run would pass for a good one.
 */
class ChaosIT {

    /**
     * Its schedule: Temporal and Redis killed together at 14.7 s, api-1 at 39.8 s, worker-2 at
     * 59.5 s: each kind of process, and two at once.
     */
    private static final long SEED = 11;

    @Test
    void aSaleUnderLoadThroughASeededScheduleOfCrashesKeepsEveryPromise() throws Exception {
        Path root = Path.of(System.getProperty("flashsale.root", ".."));
        ChaosRun.Result result =
                ChaosRun.run(new ChaosRun.Options(SEED, Duration.ofSeconds(90), 15, root, Path.of("target", "chaos")));

        assertThat(result.schedule())
                .as("the seed's schedule")
                .extracting(Nemesis.Fault::target)
                .containsExactly("temporal", "redis", "api-1", "worker-2");
        assertThat(result.faults()).hasSameSizeAs(result.schedule()).allSatisfy(fault -> {
            assertThat(fault.failure()).as("%s", fault.fault()).isNull();
            assertThat(fault.killedPid())
                    .as("%s killed a live process", fault.fault())
                    .isPositive();
            assertThat(fault.restartedPid())
                    .as("%s restarted", fault.fault())
                    .isPositive()
                    .isNotEqualTo(fault.killedPid());
        });
        assertThat(result.history())
                .as("buyers admitted")
                .anyMatch(op -> op.kind() == Op.Kind.BUY && op.status() == 202);
        assertThat(result.history())
                .as("payments confirmed")
                .anyMatch(op -> op.kind() == Op.Kind.PAY && "PAID".equals(op.purchaseStatus()));
        assertThat(result.violations()).as(result.table()).isEmpty();
    }
}
