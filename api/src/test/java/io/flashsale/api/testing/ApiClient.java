package io.flashsale.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.flashsale.stores.sale.Price;
import io.flashsale.stores.testing.TestSales;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The api over real HTTP (JDK client): requests as a buyer, an admin or an attacker would send them. */
public final class ApiClient {

    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public ApiClient(String base) {
        this.base = base;
    }

    public Response get(String path, String token) {
        return send(request(path, token).GET());
    }

    /** {@code body}: a JSON text sent as is, any other object serialized, null for no body. */
    public Response post(String path, String token, Object body) {
        return post(path, token, body, Map.of());
    }

    public Response post(String path, String token, Object body, Map<String, String> headers) {
        HttpRequest.Builder request = request(path, token)
                .header("Content-Type", "application/json")
                .POST(
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(json(body)));
        headers.forEach(request::header);
        return send(request);
    }

    public Response createSale(String token, Object sale) {
        return post("/api/sales", token, sale);
    }

    public Response sale(String token, String saleId) {
        return get("/api/sales/" + saleId, token);
    }

    /** Closes the sale now (admin). */
    public Response closeSale(String token, String saleId) {
        return post("/api/sales/" + saleId + "/close", token, null);
    }

    /** Moves the sale's window (admin); {@code window} holds startsAt and/or endsAt. */
    public Response moveSale(String token, String saleId, Object window) {
        return post("/api/sales/" + saleId + "/move", token, window);
    }

    /** Adds units to the sale (admin) under an Idempotency-Key; {@code key} null sends none. */
    public Response restock(String token, String saleId, String key, int units) {
        return unitsChange("restock", token, saleId, key, units);
    }

    /** Takes units off the sale (admin) under an Idempotency-Key; {@code key} null sends none. */
    public Response withdraw(String token, String saleId, String key, int units) {
        return unitsChange("withdraw", token, saleId, key, units);
    }

    /** The sale's invariant audit (admin). */
    public Response audit(String token, String saleId) {
        return get("/api/sales/" + saleId + "/audit", token);
    }

    private Response unitsChange(String change, String token, String saleId, String key, int units) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (key != null) {
            headers.put(IDEMPOTENCY_KEY, key);
        }
        return post("/api/sales/" + saleId + "/" + change, token, Map.of("units", units), headers);
    }

    /** A purchase with an Idempotency-Key; {@code key} null sends none. */
    public Response purchase(String token, String saleId, String key) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (key != null) {
            headers.put(IDEMPOTENCY_KEY, key);
        }
        return post("/api/sales/" + saleId + "/purchases", token, null, headers);
    }

    /** A purchase with extra headers, e.g. a forged X-Forwarded-For. */
    public Response purchase(String token, String saleId, String key, Map<String, String> extraHeaders) {
        Map<String, String> headers = new LinkedHashMap<>(extraHeaders);
        headers.put(IDEMPOTENCY_KEY, key);
        return post("/api/sales/" + saleId + "/purchases", token, null, headers);
    }

    /** A body of unknown length (Transfer-Encoding: chunked), which no Content-Length announces. */
    public Response postChunked(String path, String token, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder request = request(path, token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes)));
        return send(request);
    }

    public Response purchaseStatus(String token, String purchaseId) {
        return get("/api/purchases/" + purchaseId, token);
    }

    /** The payment service confirms a payment of the test sales' price ({@link TestSales#PRICE}). */
    public Response pay(String token, String purchaseId, String paymentId) {
        return pay(token, purchaseId, paymentId, TestSales.PRICE);
    }

    public Response pay(String token, String purchaseId, String paymentId, Price amount) {
        return post(
                "/api/purchases/" + purchaseId + "/payment", token, Map.of("paymentId", paymentId, "amount", amount));
    }

    /** The payment provider's webhook: the raw body with its timestamp and signature headers. */
    public Response webhook(String body, String timestamp, String signature) {
        return send(request("/api/payments/webhook", null)
                .header("Content-Type", "application/json")
                .header("Webhook-Timestamp", timestamp)
                .header("Webhook-Signature", signature)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    public Response cancel(String token, String purchaseId) {
        return post("/api/purchases/" + purchaseId + "/cancel", token, null);
    }

    private HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), parse(response.body()), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String json(Object body) {
        if (body instanceof String text) {
            return text;
        }
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return MissingNode.getInstance();
        }
        try {
            return JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return MissingNode.getInstance();
        }
    }

    /** A response: status, parsed JSON body (missing when none), headers and the raw text. */
    public record Response(int status, JsonNode body, HttpHeaders headers, String text) {

        public String field(String name) {
            JsonNode value = body.path(name);
            return value.isMissingNode() || value.isNull() ? null : value.asText();
        }

        /** Asserts an RFC 9457 problem with this status and a type ending in {@code /slug}. */
        public Response assertProblem(int expectedStatus, String slug) {
            assertThat(status).as("status of %s", text).isEqualTo(expectedStatus);
            assertThat(headers.firstValue("Content-Type"))
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(field("type")).as("problem type of %s", text).endsWith("/problems/" + slug);
            assertThat(body.path("status").asInt()).isEqualTo(expectedStatus);
            return this;
        }

        public Response assertStatus(int expectedStatus) {
            assertThat(status).as("status of %s", text).isEqualTo(expectedStatus);
            return this;
        }
    }
}
