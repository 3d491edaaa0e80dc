package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CpuMeterTest {

    @Test
    void stealIsTheShareOfEveryTickBetweenTwoReadings() {
        CpuMeter.Stolen before = CpuMeter.Stolen.parse("cpu  7034087 39342 590461 7403212 19120 0 75832 325682 0 0");
        // 1,000 ticks later: 700 user, 100 idle, 200 stolen
        CpuMeter.Stolen after = CpuMeter.Stolen.parse("cpu  7034787 39342 590461 7403312 19120 0 75832 325882 0 0");

        assertThat(after.percentSince(before)).isCloseTo(20.0, within(1e-9));
        assertThat(before.percentSince(before)).isZero();
    }

    @Test
    void refusesALineThatIsNotTheMachineTotal() {
        assertThatThrownBy(() -> CpuMeter.Stolen.parse("cpu0 1 2 3 4 5 6 7 8 0 0"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsThisMachine() throws Exception {
        // on Linux the counters exist and only grow
        CpuMeter.Stolen first = CpuMeter.Stolen.read();
        assertThat(CpuMeter.Stolen.read().total()).isGreaterThanOrEqualTo(first.total());
    }
}
