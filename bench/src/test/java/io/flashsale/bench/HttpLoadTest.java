package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class HttpLoadTest {

    @Test
    void givesUpWhenNoAnswerArrivesForTheSilenceTimeout() throws Exception {
        try (ServerSocket mute = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            InetSocketAddress address = new InetSocketAddress(mute.getInetAddress(), mute.getLocalPort());
            HttpLoad load = new HttpLoad(address, Duration.ofMillis(300));

            assertThatThrownBy(() -> load.run(2, requests(address, 5), new Tally(null), Long.MAX_VALUE))
                    .isInstanceOf(Await.TimedOut.class)
                    .hasMessageContaining("gave up after 300 ms waiting for an answer from")
                    .hasMessageEndingWith("last saw: 2 requests unanswered");
        }
    }

    @Test
    void runsEveryRequestWhileAnswersKeepComing() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        try {
            Tally tally = new Tally(null);

            new HttpLoad(server.getAddress(), Duration.ofMillis(300))
                    .run(2, requests(server.getAddress(), 5), tally, Long.MAX_VALUE);

            assertThat(tally.counts()).isEqualTo(Map.of("http-204", 5L));
        } finally {
            server.stop(0);
        }
    }

    private static HttpLoad.Source requests(InetSocketAddress address, int count) {
        byte[] liveness = new Requests(address).liveness();
        Iterator<Integer> ids = IntStream.range(0, count).iterator();
        return () -> ids.hasNext() ? new HttpLoad.Request(ids.next(), liveness) : null;
    }
}
