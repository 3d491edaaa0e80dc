package io.flashsale.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.sale.Price;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

/**
 * The REST api over HTTP (JDK client) as a buyer or an admin calls it: the bench's and the demo's
 * calls outside the measured load, and every call of the end-to-end tests. Each call sends its
 * bearer token and answers a {@link Response}, whatever the status.
 */
public final class Api {

    /** An answer: its status, its JSON body ({@code {}} when empty) and how long it took. */
    public record Response(int status, JsonNode body, long nanos) {

        /** The last segment of an RFC 9457 problem's type, e.g. {@code sold-out}. */
        public String problemType() {
            String type = body.path("type").asText();
            return type.substring(type.lastIndexOf('/') + 1);
        }

        /** The body as a {@code type}, e.g. the audit's report; fields it does not know are skipped. */
        public <T> T as(Class<T> type) {
            try {
                return JSON.treeToValue(body, type);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("not a " + type.getSimpleName() + ": " + body, e);
            }
        }

        /** This answer when its status is one of {@code expected}; else fails saying what was asked. */
        public Response expect(String what, int... expected) {
            if (Arrays.stream(expected).noneMatch(s -> s == status)) {
                throw new IllegalStateException(what + ": " + status + " " + body);
            }
            return this;
        }
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final URI base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The unit price of every sale this client creates, and the amount its payments confirm. */
    public static final Price UNIT_PRICE = new Price(1999, "EUR");

    public Api(URI base) {
        this.base = base;
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(base.getHost(), base.getPort());
    }

    /** A sale that opens now, named after its id, at {@link #UNIT_PRICE}. */
    public Response createSale(String adminToken, String saleId, int stock, Duration payTimeout) {
        return post(
                "/api/sales", adminToken, saleBody(saleId, stock, payTimeout).toString(), TIMEOUT);
    }

    /** As {@link #createSale(String, String, int, Duration)}, with the sale's own purchase rate limits. */
    public Response createSale(
            String adminToken, String saleId, int stock, Duration payTimeout, RateLimits rateLimits) {
        ObjectNode body = saleBody(saleId, stock, payTimeout);
        body.set("rateLimits", JSON.valueToTree(rateLimits));
        return post("/api/sales", adminToken, body.toString(), TIMEOUT);
    }

    private static ObjectNode saleBody(String saleId, int stock, Duration payTimeout) {
        ObjectNode body = JSON.createObjectNode()
                .put("id", saleId)
                .put("name", "sale " + saleId)
                .put("stock", stock)
                .put("payTimeout", payTimeout.toString());
        body.set("price", JSON.valueToTree(UNIT_PRICE));
        return body;
    }

    /** A sale from the body as given (a JSON object of {@code POST /api/sales}). */
    public Response createSale(String adminToken, JsonNode body) {
        return post("/api/sales", adminToken, body.toString(), TIMEOUT);
    }

    /** Closes the sale now. */
    public Response closeSale(String adminToken, String saleId) {
        return post("/api/sales/" + saleId + "/close", adminToken, "", TIMEOUT);
    }

    /** Moves the sale's window; {@code window} holds startsAt, endsAt or both. */
    public Response moveSale(String adminToken, String saleId, JsonNode window) {
        return post("/api/sales/" + saleId + "/move", adminToken, window.toString(), TIMEOUT);
    }

    /** Adds units to the sale, once per {@code key}. */
    public Response restock(String adminToken, String saleId, String key, int units) {
        return unitsChange("restock", adminToken, saleId, key, units);
    }

    /** Takes up to {@code units} unsold units off the sale, once per {@code key}. */
    public Response withdraw(String adminToken, String saleId, String key, int units) {
        return unitsChange("withdraw", adminToken, saleId, key, units);
    }

    private Response unitsChange(String change, String adminToken, String saleId, String key, int units) {
        return send(request("/api/sales/" + saleId + "/" + change, adminToken, TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(
                        JSON.createObjectNode().put("units", units).toString())));
    }

    public Response sale(String adminToken, String saleId) {
        return send(request("/api/sales/" + saleId, adminToken, TIMEOUT).GET());
    }

    public Response sales(String adminToken) {
        return send(request("/api/sales", adminToken, TIMEOUT).GET());
    }

    public Response purchase(String token, String saleId, String idempotencyKey) {
        return purchase(token, saleId, idempotencyKey, TIMEOUT);
    }

    /** As {@link #purchase(String, String, String)}, waiting up to {@code timeout} (not 30 s). */
    public Response purchase(String token, String saleId, String idempotencyKey, Duration timeout) {
        return send(request("/api/sales/" + saleId + "/purchases", token, timeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString("")));
    }

    public Response status(String token, String purchaseId) {
        return status(token, purchaseId, TIMEOUT);
    }

    /** As {@link #status(String, String)}, waiting up to {@code timeout} (not 30 s). */
    public Response status(String token, String purchaseId, Duration timeout) {
        return send(request("/api/purchases/" + purchaseId, token, timeout).GET());
    }

    /**
     * The payment service ({@code paymentsToken}: scope payments) confirms that {@link #UNIT_PRICE}
     * arrived for the purchase.
     */
    public Response pay(String paymentsToken, String purchaseId, String paymentId) {
        return pay(paymentsToken, purchaseId, paymentId, TIMEOUT);
    }

    /** As {@link #pay(String, String, String)}, waiting up to {@code timeout} (not 30 s). */
    public Response pay(String paymentsToken, String purchaseId, String paymentId, Duration timeout) {
        return pay(paymentsToken, purchaseId, paymentId, UNIT_PRICE, timeout);
    }

    /** As {@link #pay(String, String, String, Duration)}, confirming {@code amount} (right or not). */
    public Response pay(String paymentsToken, String purchaseId, String paymentId, Price amount, Duration timeout) {
        ObjectNode body = JSON.createObjectNode().put("paymentId", paymentId);
        body.set("amount", JSON.valueToTree(amount));
        return post("/api/purchases/" + purchaseId + "/payment", paymentsToken, body.toString(), timeout);
    }

    public Response cancel(String token, String purchaseId) {
        return cancel(token, purchaseId, TIMEOUT);
    }

    /** As {@link #cancel(String, String)}, waiting up to {@code timeout} (not 30 s). */
    public Response cancel(String token, String purchaseId, Duration timeout) {
        return post("/api/purchases/" + purchaseId + "/cancel", token, "", timeout);
    }

    /** The invariant audit of the sale (its body is an {@code AuditReport}). */
    public Response audit(String adminToken, String saleId) {
        return send(
                request("/api/sales/" + saleId + "/audit", adminToken, TIMEOUT).GET());
    }

    public Response repair(String adminToken, String saleId) {
        return post("/api/sales/" + saleId + "/audit/repair", adminToken, "", TIMEOUT);
    }

    private Response post(String path, String token, String body, Duration timeout) {
        return send(request(path, token, timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpRequest.Builder request(String path, String token, Duration timeout) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).header("Authorization", "Bearer " + token);
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
