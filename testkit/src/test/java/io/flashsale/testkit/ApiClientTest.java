package io.flashsale.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client against a JDK HTTP server that records what it was sent and answers a problem. */
class ApiClientTest {

    private final Map<String, String> received = new ConcurrentHashMap<>();
    private HttpServer server;
    private ApiClient api;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
        api = new ApiClient(URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void sendsTheTokenTheKeyAndTheBodyAndReadsTheProblem() throws Exception {
        ApiClient.Response answer = api.pay("t0ken", "p-1", "pay-1");

        assertThat(received)
                .containsEntry("path", "/api/purchases/p-1/payment")
                .containsEntry("authorization", "Bearer t0ken");
        assertThat(new ObjectMapper().readTree(received.get("body")))
                .isEqualTo(new ObjectMapper()
                        .readTree("{\"paymentId\":\"pay-1\",\"amount\":{\"amountMinor\":1999,\"currency\":\"EUR\"}}"));
        assertThat(answer.assertProblem(409, "sold-out").problemType()).isEqualTo("sold-out");
        assertThat(answer.field("status")).isEqualTo("409");
        assertThatThrownBy(() -> answer.assertProblem(409, "sale-not-found")).isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> answer.assertStatus(202)).isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> answer.expect("pay", 200, 202)).hasMessageContaining("pay: 409");
    }

    @Test
    void sendsTheIdempotencyKeyOnlyWhenThereIsOne() {
        api.purchase(null, "s1", "key-1");
        assertThat(received).containsEntry("key", "key-1").doesNotContainKey("authorization");

        received.clear();
        api.purchase("t", "s1", null);
        assertThat(received).containsEntry("path", "/api/sales/s1/purchases").doesNotContainKey("key");
    }

    private void answer(HttpExchange exchange) throws IOException {
        received.put("path", exchange.getRequestURI().getPath());
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (authorization != null) {
            received.put("authorization", authorization);
        }
        String key = exchange.getRequestHeaders().getFirst(ApiClient.IDEMPOTENCY_KEY);
        if (key != null) {
            received.put("key", key);
        }
        received.put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        byte[] problem =
                "{\"type\":\"https://flashsale.io/problems/sold-out\",\"status\":409,\"detail\":\"no units left\"}"
                        .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
        exchange.sendResponseHeaders(409, problem.length);
        exchange.getResponseBody().write(problem);
        exchange.close();
    }
}
