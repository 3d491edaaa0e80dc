package io.flashsale.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one client of the REST api for tests and tools (JDK HTTP client). Each call sends its bearer
 * token (none when null) and answers a {@link Response}, whatever the status.
 */
public final class ApiClient {

    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** How long a call waits for its answer unless {@link #waitingUpTo} says otherwise. */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** The unit price of every sale {@link #createSale(String, String, int, Duration)} creates. */
    public static final Money UNIT_PRICE = new Money(1999, "EUR");

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** A price as the api writes it: minor units (cents) and an ISO 4217 code. */
    public record Money(long amountMinor, String currency) {}

    /** An answer: its status, its JSON body (missing when empty or not JSON), headers, raw text and duration. */
    public record Response(int status, JsonNode body, HttpHeaders headers, String text, long nanos) {

        /** A top-level field of the body as text; null when missing or null. */
        public String field(String name) {
            JsonNode value = body.path(name);
            return value.isMissingNode() || value.isNull() ? null : value.asText();
        }

        /** The last segment of an RFC 9457 problem's type, e.g. {@code sold-out}. */
        public String problemType() {
            String type = body.path("type").asText();
            return type.substring(type.lastIndexOf('/') + 1);
        }

        /** A refusal as a command prints it: {@code STATUS TYPE: DETAIL}, e.g. {@code 404 sale-not-found: ...}. */
        public String refusal() {
            return status + " " + problemType() + ": " + body.path("detail").asText();
        }

        /** The body as a {@code type}, e.g. the audit's report; fields it does not know are skipped. */
        public <T> T as(Class<T> type) {
            try {
                return JSON.treeToValue(body, type);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("not a " + type.getSimpleName() + ": " + text, e);
            }
        }

        /** This answer when its status is one of {@code expected}; else fails saying what was asked. */
        public Response expect(String what, int... expected) {
            if (Arrays.stream(expected).noneMatch(s -> s == status)) {
                throw new IllegalStateException(what + ": " + status + " " + text);
            }
            return this;
        }

        /** This answer when its status is {@code expected}; else an assertion error with the body. */
        public Response assertStatus(int expected) {
            if (status != expected) {
                throw new AssertionError("expected status " + expected + " but was " + status + ": " + text);
            }
            return this;
        }

        /** Asserts an RFC 9457 problem with this status and a type ending in {@code /problems/slug}. */
        public Response assertProblem(int expected, String slug) {
            assertStatus(expected);
            String contentType = headers.firstValue("Content-Type").orElse("");
            String type = field("type");
            if (!contentType.startsWith("application/problem+json")
                    || type == null
                    || !type.endsWith("/problems/" + slug)
                    || body.path("status").asInt() != expected) {
                throw new AssertionError("expected a " + expected + " problem of type " + slug + " but got "
                        + contentType + ": " + text);
            }
            return this;
        }
    }

    private final URI base;
    private final Duration timeout;
    private final HttpClient http;

    public ApiClient(URI base) {
        this(
                base,
                TIMEOUT,
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    private ApiClient(URI base, Duration timeout, HttpClient http) {
        this.base = base;
        this.timeout = timeout;
        this.http = http;
    }

    /** This client (same connections), each call waiting up to {@code timeout} for its answer. */
    public ApiClient waitingUpTo(Duration timeout) {
        return new ApiClient(base, timeout, http);
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(base.getHost(), base.getPort());
    }

    public Response get(String path, String token) {
        return send(request(path, token).GET());
    }

    /** {@code body}: a JSON text sent as is, any other object serialized, null for no body. */
    public Response post(String path, String token, Object body) {
        return post(path, token, body, Map.of());
    }

    private Response post(String path, String token, Object body, Map<String, String> headers) {
        HttpRequest.Builder request = request(path, token)
                .header("Content-Type", "application/json")
                .POST(body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(json(body)));
        headers.forEach(request::header);
        return send(request);
    }

    /** Any method with no body; {@code headers} as name, value pairs, a name may come more than once. */
    public Response send(String method, String path, String token, String... headers) {
        HttpRequest.Builder request = request(path, token).method(method, BodyPublishers.noBody());
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request);
    }

    /** A body of unknown length (Transfer-Encoding: chunked), which no Content-Length announces. */
    public Response postChunked(String path, String token, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return send(request(path, token)
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes))));
    }

    /** A sale from the body as given (a JSON text or an object of {@code POST /api/sales}). */
    public Response createSale(String adminToken, Object sale) {
        return post("/api/sales", adminToken, sale);
    }

    /** A sale that opens now, named after its id, at {@link #UNIT_PRICE}. */
    public Response createSale(String adminToken, String saleId, int stock, Duration payTimeout) {
        return createSale(adminToken, saleId, stock, payTimeout, null);
    }

    /** As {@link #createSale(String, String, int, Duration)}, with the sale's own rate limits (null: the api's). */
    public Response createSale(String adminToken, String saleId, int stock, Duration payTimeout, Object rateLimits) {
        Map<String, Object> sale = new LinkedHashMap<>();
        sale.put("id", saleId);
        sale.put("name", "sale " + saleId);
        sale.put("stock", stock);
        sale.put("payTimeout", payTimeout.toString());
        sale.put("price", UNIT_PRICE);
        if (rateLimits != null) {
            sale.put("rateLimits", rateLimits);
        }
        return createSale(adminToken, sale);
    }

    public Response sale(String adminToken, String saleId) {
        return get("/api/sales/" + saleId, adminToken);
    }

    public Response sales(String adminToken) {
        return get("/api/sales", adminToken);
    }

    public Response closeSale(String adminToken, String saleId) {
        return post("/api/sales/" + saleId + "/close", adminToken, null);
    }

    /** {@code window} holds startsAt, endsAt or both. */
    public Response moveSale(String adminToken, String saleId, Object window) {
        return post("/api/sales/" + saleId + "/move", adminToken, window);
    }

    /** Adds units to the sale, once per {@code key} (null sends none). */
    public Response restock(String adminToken, String saleId, String key, int units) {
        return unitsChange("restock", adminToken, saleId, key, units);
    }

    /** Takes up to {@code units} unsold units off the sale, once per {@code key} (null sends none). */
    public Response withdraw(String adminToken, String saleId, String key, int units) {
        return unitsChange("withdraw", adminToken, saleId, key, units);
    }

    private Response unitsChange(String change, String adminToken, String saleId, String key, int units) {
        String path = "/api/sales/" + saleId + "/" + change;
        return post(path, adminToken, Map.of("units", units), keyed(key, Map.of()));
    }

    /** The invariant audit of the sale (its body is an {@code AuditReport}). */
    public Response audit(String adminToken, String saleId) {
        return get("/api/sales/" + saleId + "/audit", adminToken);
    }

    public Response repair(String adminToken, String saleId) {
        return post("/api/sales/" + saleId + "/audit/repair", adminToken, null);
    }

    /** A purchase under an Idempotency-Key ({@code key} null sends none). */
    public Response purchase(String token, String saleId, String key) {
        return purchase(token, saleId, key, Map.of());
    }

    /** A purchase with extra headers, e.g. a forged X-Forwarded-For. */
    public Response purchase(String token, String saleId, String key, Map<String, String> extraHeaders) {
        return post("/api/sales/" + saleId + "/purchases", token, null, keyed(key, extraHeaders));
    }

    public Response status(String token, String purchaseId) {
        return get("/api/purchases/" + purchaseId, token);
    }

    /** The payment service ({@code paymentsToken}: scope payments) confirms {@link #UNIT_PRICE}. */
    public Response pay(String paymentsToken, String purchaseId, String paymentId) {
        return pay(paymentsToken, purchaseId, paymentId, UNIT_PRICE);
    }

    /** A payment of {@code amount}, right or not. */
    public Response pay(String paymentsToken, String purchaseId, String paymentId, Money amount) {
        Map<String, Object> body = Map.of("paymentId", paymentId, "amount", amount);
        return post("/api/purchases/" + purchaseId + "/payment", paymentsToken, body);
    }

    public Response cancel(String token, String purchaseId) {
        return post("/api/purchases/" + purchaseId + "/cancel", token, null);
    }

    /** The payment provider's webhook: the raw body with its timestamp and signature headers. */
    public Response webhook(String body, String timestamp, String signature) {
        return post(
                "/api/payments/webhook",
                null,
                body,
                Map.of("Webhook-Timestamp", timestamp, "Webhook-Signature", signature));
    }

    private static Map<String, String> keyed(String key, Map<String, String> headers) {
        Map<String, String> keyed = new LinkedHashMap<>(headers);
        if (key != null) {
            keyed.put(IDEMPOTENCY_KEY, key);
        }
        return keyed;
    }

    private HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    private Response send(HttpRequest.Builder request) {
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(
                    response.statusCode(),
                    parse(response.body()),
                    response.headers(),
                    response.body(),
                    System.nanoTime() - start);
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
}
