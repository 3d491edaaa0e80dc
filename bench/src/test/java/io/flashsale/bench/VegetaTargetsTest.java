package io.flashsale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class VegetaTargetsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Requests requests = new Requests(new InetSocketAddress("127.0.0.1", 8080));

    @Test
    void aPurchaseKeepsItsMethodPathTokenAndKeyAndLeavesHostAndLengthToVegeta() throws Exception {
        JsonNode target = JSON.readTree(VegetaTargets.line(requests.purchase("s1", "tok.en", "k1-s1u7")));

        assertThat(target.path("method").asText()).isEqualTo("POST");
        assertThat(target.path("url").asText()).isEqualTo("http://127.0.0.1:8080/api/sales/s1/purchases");
        assertThat(fieldNames(target.path("header"))).containsExactlyInAnyOrder("Authorization", "Idempotency-Key");
        assertThat(target.path("header").path("Authorization").get(0).asText()).isEqualTo("Bearer tok.en");
        assertThat(target.path("header").path("Idempotency-Key").get(0).asText())
                .isEqualTo("k1-s1u7");
        assertThat(target.has("body")).as("an empty body is left out").isFalse();
    }

    @Test
    void aBodyTravelsAsBase64AndARequestWithoutHeadersHasNone() throws Exception {
        byte[] post =
                "PUT /x?y=1 HTTP/1.1\r\nHost: h:1\r\nContent-Length: 5\r\n\r\nhéllo".getBytes(StandardCharsets.UTF_8);
        JsonNode withBody = JSON.readTree(VegetaTargets.line(post));
        JsonNode liveness = JSON.readTree(VegetaTargets.line(requests.liveness()));

        assertThat(withBody.path("url").asText()).isEqualTo("http://h:1/x?y=1");
        assertThat(new String(withBody.path("body").binaryValue(), StandardCharsets.UTF_8))
                .isEqualTo("héllo");
        assertThat(withBody.has("header")).isFalse();
        assertThat(liveness.path("method").asText()).isEqualTo("GET");
        assertThat(liveness.path("url").asText()).isEqualTo("http://127.0.0.1:8080/actuator/health/liveness");
        assertThat(liveness.has("header")).isFalse();
    }

    @Test
    void refusesBytesThatAreNoRequest() {
        assertThatThrownBy(() -> VegetaTargets.line("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () -> VegetaTargets.line("GET / HTTP/1.1\r\nX: y\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))
                .hasMessageContaining("no Host header");
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
