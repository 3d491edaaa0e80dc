package io.flashsale.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {

    @Test
    void returnsWhatItReadOnceTheConditionHolds() throws Exception {
        AtomicInteger reads = new AtomicInteger();

        int seen = Await.until(
                "three reads", Duration.ofSeconds(5), Duration.ofMillis(1), reads::incrementAndGet, n -> n >= 3);

        assertThat(seen).isEqualTo(3);
    }

    @Test
    void givesUpAfterTheTimeoutNamingWhatItAwaitedAndWhatItLastSaw() {
        assertThatThrownBy(() -> Await.until(
                        "103 orders PENDING_PAYMENT at once",
                        Duration.ofMillis(200),
                        Duration.ofMillis(50),
                        () -> "100 PENDING_PAYMENT",
                        s -> false))
                .isInstanceOf(Await.TimedOut.class)
                .hasMessage("gave up after 200 ms waiting for 103 orders PENDING_PAYMENT at once;"
                        + " last saw: 100 PENDING_PAYMENT");
    }

    @Test
    void writesWholeAndLongDurationsInSecondsShortOnesInMilliseconds() {
        assertThat(Await.text(Duration.ofSeconds(2))).isEqualTo("2 s");
        assertThat(Await.text(Duration.ofMillis(61_873))).isEqualTo("62 s");
        assertThat(Await.text(Duration.ofMillis(1500))).isEqualTo("1500 ms");
    }
}
