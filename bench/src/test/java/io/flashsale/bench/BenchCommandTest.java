package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.launcher.FlashSaleStack;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchCommandTest {

    @Test
    void runsTheDefaultPhasesAtFullSizeWhenNothingIsGiven() {
        BenchCommand bench = parse();

        assertThat(bench.settings().connections).isEqualTo(200);
        assertThat(bench.settings().duration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(bench.settings().maxRequests()).isEqualTo(Long.MAX_VALUE);
        assertThat(bench.settings().curve).containsExactly(16, 64, 200, 800);
        assertThat(bench.only()).containsExactlyInAnyOrder("P1", "curve", "P2", "P3", "P4");
    }

    @Test
    void takesSmokeSizesForEveryOptionNotGiven() {
        BenchCommand bench = parse("--smoke", "--connections", "4");

        assertThat(bench.settings().connections).isEqualTo(4);
        assertThat(bench.settings().burstBuyers).isEqualTo(Settings.SMOKE_REQUESTS);
        assertThat(bench.settings().maxRequests()).isEqualTo(Settings.SMOKE_REQUESTS);
    }

    @Test
    void splitsListsAndAddsP6OnTheTemporalCluster() {
        BenchCommand bench =
                parse("--curve", "8,32", "--phases", "p2", "--temporal", "cluster", "--api-flags", "-Da=1 -Db=2");

        assertThat(bench.settings().curve).containsExactly(8, 32);
        assertThat(bench.only()).containsExactlyInAnyOrder("P1", "P2", "P6");
        assertThat(bench.appFlags().get(FlashSaleStack.App.API)).containsExactly("-Da=1", "-Db=2");
        assertThat(bench.appFlags().get(FlashSaleStack.App.WORKER)).isEmpty();
    }

    @Test
    void takesTheLastOfAnOptionGivenTwice() {
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).setOverwrittenOptionsAllowed(true).parseArgs("--duration", "5", "--duration", "7");

        assertThat(bench.settings().duration()).isEqualTo(Duration.ofSeconds(7));
    }

    private static BenchCommand parse(String... args) {
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).parseArgs(args);
        return bench;
    }
}
