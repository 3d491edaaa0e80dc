package io.flashsale.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.launcher.proxy.Toxiproxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NemesisTest {

    private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

    @Test
    void theSameSeedGivesTheSameSchedule() {
        assertThat(onDevServer(42)).isEqualTo(onDevServer(42));
        assertThat(onDevServer(42)).isNotEqualTo(onDevServer(43));
    }

    @Test
    void faultsComeEvery10To40SecondsAndStopBeforeTheEnd() {
        List<Nemesis.Fault> faults = onDevServer(7);

        assertThat(faults).hasSizeGreaterThanOrEqualTo((int) (TEN_MINUTES.toSeconds() / 40 - 1));
        assertThat(faults).allSatisfy(fault -> {
            assertThat(fault.at()).isBetween(Duration.ofSeconds(10), TEN_MINUTES.minusSeconds(15));
            assertThat(fault.down()).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(8));
            if (fault.kill()) {
                assertThat(ChaosStack.targets(false)).contains(fault.target());
            } else {
                assertThat(ChaosStack.links(false)).contains(fault.target());
                assertThat(Toxiproxy.FAULTS).contains(fault.action());
            }
        });
        for (int i = 1; i < faults.size(); i++) {
            Duration gap = faults.get(i).at().minus(faults.get(i - 1).at());
            assertThat(gap)
                    .as("gap before fault %d", i)
                    .satisfiesAnyOf(together -> assertThat(together).isZero(), apart -> assertThat(apart)
                            .isBetween(Duration.ofSeconds(10), Duration.ofSeconds(40)));
        }
    }

    @Test
    void killsAndNetworkFaultsComeAboutAsOftenAsEachOtherAndReachEveryTarget() {
        List<Nemesis.Fault> faults = new ArrayList<>();
        for (long seed = 1; seed <= 20; seed++) {
            faults.addAll(onDevServer(seed));
        }
        long kills = faults.stream().filter(Nemesis.Fault::kill).count();

        assertThat((double) kills / faults.size()).isBetween(0.4, 0.6);
        assertThat(faults)
                .extracting(Nemesis.Fault::target)
                .containsAll(ChaosStack.targets(false))
                .containsAll(ChaosStack.links(false));
        assertThat(faults)
                .extracting(Nemesis.Fault::action)
                .containsAll(Toxiproxy.FAULTS)
                .contains(Nemesis.KILL);
    }

    @Test
    void onTheClusterKillsItsFrontendAndHistoryHostsNotADevServer() {
        List<Nemesis.Fault> faults = new ArrayList<>();
        for (long seed = 1; seed <= 20; seed++) {
            faults.addAll(Nemesis.schedule(seed, TEN_MINUTES, ChaosStack.targets(true), ChaosStack.links(false)));
        }

        assertThat(faults)
                .filteredOn(Nemesis.Fault::kill)
                .extracting(Nemesis.Fault::target)
                .contains("temporal-frontend", "temporal-history-1", "temporal-history-2")
                .doesNotContain("temporal")
                .allSatisfy(target -> assertThat(ChaosStack.targets(true)).contains(target));
    }

    @Test
    void onRedisSentinelNeverBreaksALinkToRedis() {
        List<Nemesis.Fault> faults = new ArrayList<>();
        for (long seed = 1; seed <= 20; seed++) {
            faults.addAll(Nemesis.schedule(seed, TEN_MINUTES, ChaosStack.targets(false), ChaosStack.links(true)));
        }

        assertThat(faults)
                .filteredOn(fault -> !fault.kill())
                .extracting(Nemesis.Fault::target)
                .containsOnly("to-mysql", "to-temporal");
        assertThat(faults)
                .filteredOn(Nemesis.Fault::kill)
                .extracting(Nemesis.Fault::target)
                .contains("redis");
    }

    @Test
    void twoAtOnceHitTwoDifferentTargets() {
        for (long seed = 1; seed <= 50; seed++) {
            List<Nemesis.Fault> faults = onDevServer(seed);
            for (int i = 1; i < faults.size(); i++) {
                if (faults.get(i).at().equals(faults.get(i - 1).at())) {
                    assertThat(faults.get(i).target())
                            .isNotEqualTo(faults.get(i - 1).target());
                }
            }
        }
    }

    /** The ten-minute schedule of seed {@code seed} on the dev server. */
    private static List<Nemesis.Fault> onDevServer(long seed) {
        return Nemesis.schedule(seed, TEN_MINUTES, ChaosStack.targets(false), ChaosStack.links(false));
    }
}
