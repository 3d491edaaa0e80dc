package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OrderLagTest {

    @Test
    void measuresEachWinnerFromItsAnswerToItsOrderAndTheLastOrderFromTheLastAnswer() {
        Map<String, Long> answered = new HashMap<>();
        Map<String, Long> written = new HashMap<>();
        for (int i = 1; i <= 100; i++) {
            answered.put("u" + i, 1_000L + i);
            written.put("u" + i, 1_000L + i + i * 10L);
        }

        OrderLag lag = OrderLag.of(answered, written);

        assertThat(lag.orders()).isEqualTo(100);
        assertThat(lag.p50Millis()).isEqualTo(500);
        assertThat(lag.p99Millis()).isEqualTo(990);
        assertThat(lag.lastOrderAfterLastAnswerSeconds()).isEqualTo((2_100 - 1_100) / 1000.0);
    }

    @Test
    void leavesOutWinnersWithoutAnOrderAndReportsNothingWhenNoneHasOne() {
        OrderLag some = OrderLag.of(Map.of("a", 10L, "b", 20L), Map.of("a", 110L));
        assertThat(some.orders()).isEqualTo(1);
        assertThat(some.p99Millis()).isEqualTo(100);

        OrderLag none = OrderLag.of(Map.of("a", 10L), Map.of());
        assertThat(none.orders()).isZero();
        assertThat(none.p50Millis()).isNaN();
    }
}
