package io.flashsale.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one client of the REST api for tests and tools (JDK HTTP client). Each call sends its bearer
 * token (none when null) and answers a {@link Response}, whatever the status; endpoints without a
 * method here are called by their path ({@link #get}, {@link #post}, {@link #send}).
 *
 * @param timeout how long a call waits for its answer
 */
public record ApiClient(URI base, Duration timeout, HttpClient http) {

    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** The unit price of every sale {@link #createSale} creates. */
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

    /** Each call waiting up to 30 s for its answer. */
    public ApiClient(URI base) {
        this(
                base,
                Duration.ofSeconds(30),
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    /** This client (same connections), each call waiting up to {@code timeout} for its answer. */
    public ApiClient waitingUpTo(Duration timeout) {
        return new ApiClient(base, timeout, http);
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(base.getHost(), base.getPort());
    }

    public Response get(String path, String token) {
        return send("GET", path, token, null);
    }

    public Response post(String path, String token, Object body, String... headers) {
        return send("POST", path, token, body, headers);
    }

    /**
     * The one request. {@code body}: a JSON text sent as is, an {@link InputStream} sent chunked (no
     * Content-Length), any other object serialized, null for none. {@code headers}: name, value pairs,
     * a name may come more than once, a null value sends none.
     */
    public Response send(String method, String path, String token, Object body, String... headers) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).method(method, publisher(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            if (headers[i + 1] != null) {
                request.header(headers[i], headers[i + 1]);
            }
        }
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = http.send(request.build(), BodyHandlers.ofString());
            String text = response.body();
            return new Response(
                    response.statusCode(), parse(text), response.headers(), text, System.nanoTime() - start);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A sale that opens now, named after its id, at {@link #UNIT_PRICE}, with the api's rate limits. */
    public Response createSale(String adminToken, String saleId, int stock, Duration payTimeout) {
        return createSale(adminToken, saleId, stock, payTimeout, null);
    }

    /** As the other, with the sale's own {@code rateLimits} (null: the api's). */
    public Response createSale(String adminToken, String saleId, int stock, Duration payTimeout, Object rateLimits) {
        Map<String, Object> sale = new LinkedHashMap<>(
                Map.of("id", saleId, "name", "sale " + saleId, "stock", stock, "payTimeout", payTimeout.toString()));
        sale.put("price", UNIT_PRICE);
        if (rateLimits != null) {
            sale.put("rateLimits", rateLimits);
        }
        return post("/api/sales", adminToken, sale);
    }

    /** The invariant audit of the sale (its body is an {@code AuditReport}). */
    public Response audit(String adminToken, String saleId) {
        return get("/api/sales/" + saleId + "/audit", adminToken);
    }

    /** A sale from the body as given (a JSON text or an object of {@code POST /api/sales}). */
    public Response createSale(String adminToken, Object sale) {
        return post("/api/sales", adminToken, sale);
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
        return post("/api/sales/" + saleId + "/restock", adminToken, Map.of("units", units), IDEMPOTENCY_KEY, key);
    }

    /** Takes up to {@code units} unsold units off the sale, once per {@code key} (null sends none). */
    public Response withdraw(String adminToken, String saleId, String key, int units) {
        return post("/api/sales/" + saleId + "/withdraw", adminToken, Map.of("units", units), IDEMPOTENCY_KEY, key);
    }

    public Response repair(String adminToken, String saleId) {
        return post("/api/sales/" + saleId + "/audit/repair", adminToken, null);
    }

    /** A body of unknown length (Transfer-Encoding: chunked), which no Content-Length announces. */
    public Response postChunked(String path, String token, String body) {
        return post(path, token, new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    /** The payment provider's webhook: the raw body with its timestamp and signature headers. */
    public Response webhook(String body, String timestamp, String signature) {
        return post(
                "/api/payments/webhook", null, body, "Webhook-Timestamp", timestamp, "Webhook-Signature", signature);
    }

    /** A purchase under an Idempotency-Key ({@code key} null sends none), with extra headers as {@link #send}'s. */
    public Response purchase(String token, String saleId, String key, String... headers) {
        String[] keyed = Arrays.copyOf(headers, headers.length + 2);
        keyed[headers.length] = IDEMPOTENCY_KEY;
        keyed[headers.length + 1] = key;
        return post("/api/sales/" + saleId + "/purchases", token, null, keyed);
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

    private static BodyPublisher publisher(Object body) {
        if (body == null) {
            return BodyPublishers.noBody();
        }
        if (body instanceof InputStream stream) {
            return BodyPublishers.ofInputStream(() -> stream);
        }
        try {
            return BodyPublishers.ofString(body instanceof String text ? text : JSON.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? MissingNode.getInstance() : JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return MissingNode.getInstance();
        }
    }
}
