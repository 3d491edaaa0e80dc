package io.flashsale.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The api starts on its own collector unless its flags choose one (a JVM refuses two). */
class ApiCollectorTest {

    @Test
    void addsTheApisCollectorToFlagsThatChooseNone() {
        assertThat(FlashSaleStack.withApiCollector(FlashSaleStack.JVM_DEFAULTS))
                .containsAll(FlashSaleStack.API_COLLECTOR)
                .containsAll(FlashSaleStack.JVM_DEFAULTS);
    }

    @Test
    void leavesACollectorTheFlagsChooseAlone() {
        List<String> g1 = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseG1GC");

        assertThat(FlashSaleStack.withApiCollector(g1)).isEqualTo(g1);
        assertThat(FlashSaleStack.withApiCollector(List.of("-XX:+UseShenandoahGC")))
                .containsExactly("-XX:+UseShenandoahGC");
    }
}
