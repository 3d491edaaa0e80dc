package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.chaos.ChaosCommand;
import io.flashsale.chaos.Nemesis;
import io.flashsale.chaos.Op;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The chaos run in the build: steady load on three sales through the crashes and network faults of
 * a fixed seed's schedule, then the checker over the whole history. The faults must have happened
 * (each killed target's pid gone and a new one in its place; each broken link reported broken by
 * Toxiproxy and then healed) and the load must have bought and paid, or a quiet run would pass for
 * a good one.
 */
class ChaosIT {

    private static final Path ROOT = Path.of(System.getProperty("flashsale.root", ".."));

    /**
     * {@code bin/flashsale chaos --duration 90s --seed 13 --rate 15}: latency to MySQL while Temporal
     * is killed (10.5 s), Redis killed while the link to Temporal is cut (22.6 s), api-1 killed (47.5
     * s), latency to MySQL while worker-2 is killed (63.3 s): each kind of app, both stores the apps
     * share, two faults at once.
     */
    @Test
    void aSaleUnderLoadThroughASeededScheduleOfCrashesKeepsEveryPromise() throws Exception {
        ChaosCommand.Result result = run("--duration 90s --seed 13 --rate 15 --out target/chaos");

        assertThat(result.schedule())
                .as("the seed's schedule")
                .extracting(fault -> fault.action() + " " + fault.target())
                .containsExactly(
                        "latency to-mysql",
                        "kill temporal",
                        "kill redis",
                        "cut to-temporal",
                        "kill api-1",
                        "latency to-mysql",
                        "kill worker-2");
        assertKeptEveryPromiseThroughFaultsThatHappened(result);
    }

    /**
     * {@code bin/flashsale chaos --duration 60s --seed 285 --rate 15 --redis sentinel}: the Redis
     * master's machine is lost with its disk twice (31.3 s, with latency to Temporal; 42.6 s, with a
     * slow close on MySQL), the second time the machine the first failover promoted. A 202 waits for
     * the replica; between a promotion and the new machine's sync it goes out on the promoted
     * master's word (no master is lost in that window). The checker finds every answered admission
     * in its purchase.
     */
    @Test
    void losingTheRedisMastersMachineTwiceUnderLoadLosesNoAnsweredAdmission() throws Exception {
        ChaosCommand.Result result =
                run("--duration 60s --seed 285 --rate 15 --redis sentinel --out target/chaos-sentinel");

        assertThat(result.schedule())
                .as("the seed's schedule")
                .extracting(fault -> fault.action() + " " + fault.target())
                .containsExactly(
                        "cut to-mysql", "kill redis", "latency to-temporal", "slow_close to-mysql", "kill redis");
        List<Nemesis.Done> losses = result.faults().stream()
                .filter(fault -> fault.fault().kill())
                .sorted(Comparator.comparing(fault -> fault.fault().at()))
                .toList();
        assertThat(losses)
                .extracting(fault -> ProcessHandle.of(fault.killedPid()).isPresent())
                .as("each lost master's process is gone")
                .containsExactly(false, false);
        assertThat(losses.get(1).killedPid())
                .as("the second loss takes the master the first failover promoted")
                .isEqualTo(losses.get(0).restartedPid());
        assertThat(result.history())
                .as("buyers admitted after the first master was lost")
                .anyMatch(op -> op.kind() == Op.Kind.BUY
                        && op.status() == 202
                        && op.invokedAtMillis()
                                > result.schedule().get(1).at().plusSeconds(10).toMillis());
        assertKeptEveryPromiseThroughFaultsThatHappened(result);
    }

    /** {@code bin/flashsale chaos} with {@code args} (split on spaces), on this checkout. */
    private static ChaosCommand.Result run(String args) throws Exception {
        ChaosCommand chaos = new ChaosCommand();
        new CommandLine(chaos)
                .parseArgs(Stream.concat(Stream.of("--root", ROOT.toString()), Stream.of(args.split(" ")))
                        .toArray(String[]::new));
        return chaos.run();
    }

    private static void assertKeptEveryPromiseThroughFaultsThatHappened(ChaosCommand.Result result) {
        assertThat(result.faults()).hasSameSizeAs(result.schedule()).allSatisfy(fault -> {
            assertThat(fault.failure()).as("%s", fault.fault()).isNull();
            if (fault.fault().kill()) {
                assertThat(fault.killedPid())
                        .as("%s killed a live process", fault.fault())
                        .isPositive();
                assertThat(fault.restartedPid())
                        .as("%s restarted", fault.fault())
                        .isPositive()
                        .isNotEqualTo(fault.killedPid());
            } else {
                assertThat(fault.broken())
                        .as("%s as Toxiproxy reported it while on", fault.fault())
                        .isEqualTo(
                                fault.fault().action().equals("cut")
                                        ? "disabled []"
                                        : "enabled [" + fault.fault().action() + "]");
                assertThat(fault.healed()).as("%s healed", fault.fault()).isEqualTo("enabled []");
            }
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
