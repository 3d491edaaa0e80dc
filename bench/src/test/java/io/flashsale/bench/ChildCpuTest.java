package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChildCpuTest {

    @Test
    void readsTheEndedChildrensTicksAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 5000 0 0 12 3 150 50 20 0 9 0 777 1 2";

        assertThat(ChildCpu.ofStat(stat)).isEqualTo(Duration.ofMillis(2000));
    }

    @Test
    void aChildsCpuCountsOnceItEnded() throws Exception {
        Duration before = ChildCpu.ended();
        Process busy = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done").start();
        busy.waitFor();

        assertThat(ChildCpu.ended()).isGreaterThan(before);
    }
}
