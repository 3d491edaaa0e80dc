package io.flashsale.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The REST api as a buyer's or admin's client sees it. */
final class ApiClient {

    record Response(int status, JsonNode body, long nanos) {

        String problemType() {
            String type = body.path("type").asText();
            return type.substring(type.lastIndexOf('/') + 1);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ApiClient(URI base) {
        this.base = base;
    }

    Response createSale(String adminToken, String saleId, int stock, String payTimeout) {
        String body = "{\"id\":\"%s\",\"name\":\"e2e\",\"stock\":%d,\"payTimeout\":\"%s\"}"
                .formatted(saleId, stock, payTimeout);
        return post("/api/sales", adminToken, body, null);
    }

    Response sale(String adminToken, String saleId) {
        return send(request("/api/sales/" + saleId, adminToken).GET());
    }

    Response purchase(String token, String saleId, String idempotencyKey) {
        return post("/api/sales/" + saleId + "/purchases", token, "", idempotencyKey);
    }

    Response status(String token, String purchaseId) {
        return send(request("/api/purchases/" + purchaseId, token).GET());
    }

    /** As {@link #purchase}, waiting up to {@code timeout} (not 30 s) for the answer. */
    Response purchase(String token, String saleId, String idempotencyKey, Duration timeout) {
        return send(request("/api/sales/" + saleId + "/purchases", token)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString("")));
    }

    /** As {@link #status}, waiting up to {@code timeout} (not 30 s) for the answer. */
    Response status(String token, String purchaseId, Duration timeout) {
        return send(
                request("/api/purchases/" + purchaseId, token).timeout(timeout).GET());
    }

    Response pay(String token, String purchaseId, String paymentId) {
        return post("/api/purchases/" + purchaseId + "/payment", token, "{\"paymentId\":\"" + paymentId + "\"}", null);
    }

    Response cancel(String token, String purchaseId) {
        return post("/api/purchases/" + purchaseId + "/cancel", token, "", null);
    }

    Response sales(String adminToken) {
        return send(request("/api/sales", adminToken).GET());
    }

    Response audit(String adminToken, String saleId) {
        return send(request("/api/sales/" + saleId + "/audit", adminToken).GET());
    }

    Response repair(String adminToken, String saleId) {
        return post("/api/sales/" + saleId + "/audit/repair", adminToken, "", null);
    }

    private Response post(String path, String token, String body, String idempotencyKey) {
        HttpRequest.Builder request = request(path, token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return send(request);
    }

    private HttpRequest.Builder request(String path, String token) {
        return HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token);
    }

    private Response send(HttpRequest.Builder request) {
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            long nanos = System.nanoTime() - start;
            String body = response.body();
            return new Response(response.statusCode(), JSON.readTree(body.isEmpty() ? "{}" : body), nanos);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
