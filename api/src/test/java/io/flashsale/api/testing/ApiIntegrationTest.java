package io.flashsale.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.ApiApplication;
import io.flashsale.api.TestTokens;
import io.flashsale.stores.testing.StoreProbe;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.stores.testing.TestStores;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.ApiClient.Response;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The api on a random port against real MariaDB/MySQL (fresh schema), Redis (fresh key prefix) and
 * an in-process Temporal, with the purchase worker running in the same JVM. Every subclass shares
 * one Spring context (declare no other configuration), so the whole suite starts it once. The
 * {@code dev} profile lets the api accept the dev JWT secret {@link TestTokens} signs with; metrics
 * export stays on, as in production, so {@code /actuator/prometheus} is served.
 */
@ActiveProfiles("dev")
// tests turn metrics export off by default; /actuator/prometheus is part of what the api serves
@AutoConfigureObservability(tracing = false)
@SpringBootTest(
        classes = {ApiApplication.class, ApiTestConfiguration.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class ApiIntegrationTest {

    protected static final String ADMIN = TestTokens.admin();

    /** The payment service's token (scope payments). */
    protected static final String PAYMENTS = TestTokens.payments();

    /** The payment provider's webhook signing key in these tests. */
    protected static final String WEBHOOK_SECRET = "webhook-test-secret-0123456789";

    /** MySQL connections of the api (and the test worker): the production default. */
    protected static final int POOL_SIZE = 5;

    @LocalServerPort
    int port;

    @Autowired
    protected StoreProbe stores;

    protected ApiClient api;

    @DynamicPropertySource
    static void backingServices(DynamicPropertyRegistry registry) {
        TestStores.register(registry);
        registry.add("spring.temporal.connection.target", DevTemporal::target);
        registry.add("spring.temporal.namespace", () -> DevTemporal.NAMESPACE);
        registry.add("flashsale.api.jwt.secret", () -> TestTokens.DEV_SECRET);
        registry.add("flashsale.api.payments.webhook-secret", () -> WEBHOOK_SECRET);
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> POOL_SIZE);
        // fail fast (not after Hikari's 30 s) should a request ever keep a connection
        registry.add("spring.datasource.hikari.connection-timeout", () -> "3000");
        // sold-out marks last until a unit comes back: a test that sells a returned unit again
        // shows the release's announcement reached the api, not that a short mark ran out
        registry.add("flashsale.api.sold-out-mark.ttl", () -> "10m");
        // the warm-up's private sales would show in every test's snapshot of the Redis keys; the
        // end-to-end tests run the api with its warm-up
        registry.add("flashsale.api.warmup.requests", () -> 0);
    }

    @BeforeEach
    void connectClient() {
        api = new ApiClient(URI.create("http://127.0.0.1:" + port));
    }

    /** A sale body with a fresh id, open now, no end, pay timeout ten minutes. */
    protected static Map<String, Object> saleBody(int stock) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", TestSales.newId());
        body.put("name", "api test sale");
        body.put("stock", stock);
        body.put("payTimeout", "PT10M");
        body.put("price", TestSales.PRICE);
        return body;
    }

    /** Creates an open sale over HTTP; returns its id. */
    protected String openSale(int stock) {
        return createSale(saleBody(stock));
    }

    protected String createSale(Map<String, Object> body) {
        Response created = api.post("/api/sales", ADMIN, body).assertStatus(201);
        return created.field("id");
    }

    protected String startsLater(Map<String, Object> body) {
        body.put("startsAt", Instant.now().plus(Duration.ofHours(1)).toString());
        return createSale(body);
    }

    /** Polls the purchase as its owner until it has {@code status}; fails after ten seconds. */
    protected Response awaitStatus(String token, String purchaseId, String status) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        Response current = api.status(token, purchaseId);
        while (!status.equals(current.field("status")) && Instant.now().isBefore(deadline)) {
            sleep(Duration.ofMillis(50));
            current = api.status(token, purchaseId);
        }
        assertThat(current.field("status")).as("status of %s", current.text()).isEqualTo(status);
        return current;
    }

    protected static String purchaseId(String saleId, String userId) {
        return PurchaseRequest.purchaseId(saleId, userId);
    }

    protected static String newUser() {
        return "u" + TestStores.random(10);
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
