package io.flashsale.launcher.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flashsale.launcher.Processes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The link faults on the real Toxiproxy server, in seconds: what the chaos run expects Toxiproxy to
 * report while a fault is on and once it is healed.
 */
class ToxiproxyIT {

    private static final String LINK = "to-store";

    @Test
    void reportsEachFaultWhileOnAndTheLinkWholeOnceHealed(@TempDir Path logs) throws Exception {
        try (Processes processes = new Processes(logs, Duration.ofMinutes(2));
                ServerSocket store = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Toxiproxy toxiproxy = Toxiproxy.start(processes, root());
            int port = toxiproxy.proxy(LINK, "127.0.0.1:" + store.getLocalPort());

            assertThat(toxiproxy.state(LINK)).isEqualTo("enabled []");
            for (String fault : Toxiproxy.FAULTS) {
                assertThat(toxiproxy.breakLink(LINK, fault))
                        .isEqualTo(fault.equals("cut") ? "disabled []" : "enabled [" + fault + "]");
                if (fault.equals("cut")) {
                    assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
                            .as("a cut link refuses connections")
                            .isInstanceOf(IOException.class);
                }
                assertThat(toxiproxy.healLink(LINK, fault)).isEqualTo("enabled []");
            }
            new Socket("127.0.0.1", port).close();
        }
    }

    private static Path root() {
        return Path.of(System.getProperty("flashsale.root", ".."));
    }
}
