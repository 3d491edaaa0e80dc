package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.flashsale.launcher.Await;
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

            new HttpLoad(server.getAddress(), Duration.ofSeconds(5))
                    .run(2, requests(server.getAddress(), 5), tally, Long.MAX_VALUE);

            assertThat(tally.counts()).isEqualTo(Map.of("http-204", 5L));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void readsSizedAndChunkedBodies() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] soldOut = "{\"type\":\"https://flashsale.io/problems/sold-out\"}".getBytes();
        server.createContext("/", exchange -> {
            boolean chunked = exchange.getRequestURI().getPath().contains("health");
            exchange.sendResponseHeaders(409, chunked ? 0 : soldOut.length);
            exchange.getResponseBody().write(soldOut);
            exchange.close();
        });
        server.start();
        try {
            Tally tally = new Tally(null);
            byte[] purchase = new Requests(server.getAddress()).purchase("s", "t", "k");
            byte[] liveness = new Requests(server.getAddress()).liveness();

            new HttpLoad(server.getAddress()).each(1, java.util.List.of(purchase, liveness, purchase), tally);

            assertThat(tally.counts()).isEqualTo(Map.of("sold-out", 3L));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void openLoopSendsEachRequestAtItsTimeOnAConnectionOfItsOwnWhileEarlierOnesWait() throws Exception {
        HttpServer server = slowServer(Duration.ofMillis(300), 20);
        try {
            Tally tally = new Tally(null);

            HttpLoad.Schedule schedule = new HttpLoad(server.getAddress(), Duration.ofSeconds(5))
                    .runOpen(list(server.getAddress(), 10), 1000, 1, 100, tally);

            assertThat(tally.counts()).isEqualTo(Map.of("http-204", 10L));
            assertThat(schedule.connections()).as("one per request in flight").isEqualTo(10);
            assertThat(schedule.sendDelays().getTotalCount()).isEqualTo(10);
        } finally {
            stop(server);
        }
    }

    @Test
    void openLoopCountsLatencyFromTheIntendedTimeWhenEveryConnectionIsBusy() throws Exception {
        HttpServer server = slowServer(Duration.ofMillis(100), 1);
        try {
            Tally tally = new Tally(null);

            HttpLoad.Schedule schedule = new HttpLoad(server.getAddress(), Duration.ofSeconds(5))
                    .runOpen(list(server.getAddress(), 5), 1000, 1, 1, tally);

            assertThat(tally.counts()).isEqualTo(Map.of("http-204", 5L));
            assertThat(schedule.connections()).isEqualTo(1);
            assertThat(schedule.late())
                    .as("each send after the first waits for the answer before it")
                    .isGreaterThanOrEqualTo(4);
            assertThat(tally.millis(100))
                    .as("the last request was due at 4 ms and answered after five answers of 100 ms")
                    .isGreaterThanOrEqualTo(400);
        } finally {
            stop(server);
        }
    }

    private static void stop(HttpServer server) {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }

    /** Answers 204 after {@code delay}, on {@code threads} threads. */
    private static HttpServer slowServer(Duration delay, int threads) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        server.createContext("/", exchange -> {
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(threads));
        server.start();
        return server;
    }

    private static java.util.List<byte[]> list(InetSocketAddress address, int count) {
        return java.util.Collections.nCopies(count, new Requests(address).liveness());
    }

    private static HttpLoad.Source requests(InetSocketAddress address, int count) {
        byte[] liveness = new Requests(address).liveness();
        Iterator<Integer> ids = IntStream.range(0, count).iterator();
        return () -> ids.hasNext() ? new HttpLoad.Request(ids.next(), liveness) : null;
    }
}
