package io.flashsale.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PayerTest {

    @Test
    void paysTheShareOfWinnersSpreadOverTheOrderOfAdmission() {
        assertThat(payingAmong(10, 0.3)).isEqualTo(3);
        assertThat(payingAmong(100, 0.3)).isEqualTo(30);
        assertThat(payingAmong(20, 0.5)).isEqualTo(10);
        assertThat(IntStream.range(0, 4).filter(i -> Payer.pays(i, 0.5))).containsExactly(1, 3);
    }

    @Test
    void paysEveryWinnerOrNoneAtTheEnds() {
        assertThat(payingAmong(50, 1.0)).isEqualTo(50);
        assertThat(payingAmong(50, 0.0)).isZero();
    }

    private static long payingAmong(int winners, double share) {
        return IntStream.range(0, winners).filter(i -> Payer.pays(i, share)).count();
    }
}
