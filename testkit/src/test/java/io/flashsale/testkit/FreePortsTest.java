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
}
