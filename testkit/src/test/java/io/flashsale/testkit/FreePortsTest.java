package io.flashsale.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void handsOutDistinctPortsBelowTheEphemeralRangeThatCanBeBound() throws Exception {
        List<Integer> ports = FreePorts.take(200);

        assertThat(ports).doesNotHaveDuplicates().allSatisfy(port -> assertThat(port)
                .isBetween(15_000, 32_767));
        for (int port : ports.subList(0, 5)) {
            try (ServerSocket server = new ServerSocket(port)) {
                assertThat(server.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void forksOfOneRunPickFromSlicesThatDoNotOverlap() {
        assertThat(FreePorts.range("")).containsExactly(15_000, 32_768);
        int[] first = FreePorts.range("1");
        int[] second = FreePorts.range("2");

        assertThat(first[0]).isEqualTo(15_000);
        assertThat(second[0]).as("the second fork starts where the first ends").isEqualTo(first[1]);
        assertThat(FreePorts.range("4")[1]).isLessThanOrEqualTo(32_768);
        assertThat(FreePorts.range("5"))
                .as("a fifth fork shares the first one's slice")
                .containsExactly(first);
    }
}
