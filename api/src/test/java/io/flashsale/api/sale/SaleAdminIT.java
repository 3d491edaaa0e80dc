package io.flashsale.api.sale;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.testing.StoreSnapshot;
import io.flashsale.testkit.ApiClient.Response;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class SaleAdminIT extends ApiIntegrationTest {

    @Test
    void createsSaleInMySqlAndRedis() {
        Map<String, Object> body = saleBody(7);

        Response created = api.createSale(ADMIN, body).assertStatus(201);

        String id = (String) body.get("id");
        assertThat(created.headers().firstValue("Location")).hasValue("/api/sales/" + id);
        assertThat(created.field("id")).isEqualTo(id);
        assertThat(created.body().path("total").asInt()).isEqualTo(7);
        assertThat(created.body().path("available").asInt()).isEqualTo(7);
        assertThat(created.body().path("redisStock").asLong()).isEqualTo(7);
        assertThat(created.field("payTimeout")).isEqualTo("PT10M");
        assertThat(stores.available(id)).isEqualTo(7);
        assertThat(stores.redisStock(id)).isEqualTo(7);
    }

    @Test
    void answersSameSaleAgainWith200AndWritesNothing() {
        Map<String, Object> body = saleBody(5);
        body.put("startsAt", "2030-01-01T10:00:00.123Z");
        body.put("endsAt", "2030-01-01T11:00:00Z");
        String id = createSale(body);
        StoreSnapshot before = stores.snapshot(id);

        Response again = api.createSale(ADMIN, body).assertStatus(200);

        assertThat(again.field("id")).isEqualTo(id);
        assertThat(again.field("startsAt")).isEqualTo("2030-01-01T10:00:00.123Z");
        assertThat(again.body().path("total").asInt()).isEqualTo(5);
        assertThat(stores.snapshot(id)).isEqualTo(before);
    }

    @Test
    void refusesSameIdWithOtherSettingsAndKeepsTheSale() {
        Map<String, Object> body = saleBody(5);
        String id = createSale(body);
        StoreSnapshot before = stores.snapshot(id);

        body.put("stock", 6);
        api.createSale(ADMIN, body).assertProblem(409, "sale-conflict");
        body.put("stock", 5);
        body.put("name", "another name");
        api.createSale(ADMIN, body).assertProblem(409, "sale-conflict");
        body.put("name", saleBody(5).get("name"));
        body.put("rateLimits", Map.of("perUser", Map.of("capacity", 1, "refillPerSecond", 1)));
        api.createSale(ADMIN, body).assertProblem(409, "sale-conflict");

        assertThat(stores.snapshot(id)).isEqualTo(before);
        assertThat(api.sale(ADMIN, id).body().path("total").asInt()).isEqualTo(5);
    }

    @Test
    void showsSaleWithStockAndOrderCounts() {
        String id = openSale(3);
        String buyer = newUser();
        api.purchase(TestTokens.buyer(buyer), id, "k1").assertStatus(202);
        awaitStatus(TestTokens.buyer(buyer), purchaseId(id, buyer), "PENDING_PAYMENT");

        Response sale = api.sale(ADMIN, id).assertStatus(200);

        assertThat(sale.field("id")).isEqualTo(id);
        assertThat(sale.field("name")).isEqualTo("api test sale");
        assertThat(sale.body().path("total").asInt()).isEqualTo(3);
        assertThat(sale.body().path("available").asInt()).isEqualTo(2);
        assertThat(sale.body().path("redisStock").asLong()).isEqualTo(2);
        assertThat(sale.body().path("pendingPayment").asInt()).isEqualTo(1);
        assertThat(sale.body().path("paid").asInt()).isZero();
        assertThat(sale.body().path("expired").asInt()).isZero();
        assertThat(sale.body().path("cancelled").asInt()).isZero();
    }

    @Test
    void servesMoreSaleRequestsThanTheConnectionPoolHolds() {
        for (int i = 0; i < POOL_SIZE + 3; i++) {
            String id = openSale(1);
            api.sale(ADMIN, id).assertStatus(200);
        }

        assertThat(stores.count("SELECT COUNT(*) FROM sales")).isGreaterThanOrEqualTo(POOL_SIZE + 3);
    }

    @Test
    void answersUnknownSaleWith404() {
        api.sale(ADMIN, "tnosuchsale").assertProblem(404, "sale-not-found");
        api.sale(ADMIN, "a-b").assertProblem(404, "sale-not-found");
    }

    @Test
    void refusesBuyerTokenWith403AndWritesNothing() {
        Map<String, Object> body = saleBody(5);
        String existing = openSale(2);
        StoreSnapshot before = stores.snapshot((String) body.get("id"));

        api.createSale(TestTokens.buyer("mallory"), body).assertProblem(403, "forbidden");
        api.sale(TestTokens.buyer("mallory"), existing).assertProblem(403, "forbidden");

        assertThat(stores.snapshot((String) body.get("id"))).isEqualTo(before);
    }

    @Test
    void refusesABuyerEveryMethodOnEveryAdminRouteAndWritesNothing() {
        String existing = openSale(2);
        StoreSnapshot before = stores.snapshot(existing);
        String mallory = TestTokens.buyer("mallory");

        for (String route : new String[] {"", "/close", "/move", "/restock", "/withdraw", "/audit", "/audit/repair"}) {
            for (String method : new String[] {"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"}) {
                Response refused =
                        api.send(method, "/api/sales/" + existing + route, mallory, null, "Idempotency-Key", "k1");

                assertThat(refused.status())
                        .as("%s %s: %s", method, route, refused.text())
                        .isEqualTo(403);
            }
        }
        assertThat(api.send("HEAD", "/api/sales", mallory, null).status()).isEqualTo(403);
        assertThat(stores.snapshot(existing)).isEqualTo(before);
    }

    @Test
    void refusesMissingTokenWith401AndWritesNothing() {
        Map<String, Object> body = saleBody(5);
        String existing = openSale(2);
        StoreSnapshot before = stores.snapshot((String) body.get("id"));

        Response refused = api.createSale(null, body).assertProblem(401, "unauthorized");
        api.sale(null, existing).assertProblem(401, "unauthorized");

        assertThat(refused.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(value -> assertThat(value).startsWith("Bearer"));
        assertThat(stores.snapshot((String) body.get("id"))).isEqualTo(before);
    }

    @Test
    void refusesMalformedJsonWith400AndWritesNothing() {
        StoreSnapshot before = stores.snapshot("tmalformed");

        api.createSale(ADMIN, "{\"id\":\"tmalformed\",\"name\":").assertProblem(400, "invalid-request");
        api.createSale(ADMIN, "[1,2]").assertProblem(400, "invalid-request");
        api.createSale(ADMIN, "{\"id\":\"tmalformed\",\"name\":\"x\",\"stock\":\"many\"}")
                .assertProblem(400, "invalid-request");
        api.createSale(ADMIN, "{\"id\":\"tmalformed\",\"name\":\"x\",\"stock\":1,\"payTimeout\":\"soon\"}")
                .assertProblem(400, "invalid-request");

        assertThat(stores.snapshot("tmalformed")).isEqualTo(before);
    }

    @Test
    void refusesNegativeZeroOrHugeStockWith400AndWritesNothing() {
        assertRefusedAndNothingWritten(body -> body.put("stock", -1));
        assertRefusedAndNothingWritten(body -> body.put("stock", 0));
        assertRefusedAndNothingWritten(body -> body.put("stock", 2_000_000));
        assertRefusedAndNothingWritten(body -> body.remove("stock"));
    }

    @Test
    void refusesPayTimeoutOutsideOneSecondToOneDayWith400AndWritesNothing() {
        assertRefusedAndNothingWritten(body -> body.put("payTimeout", "PT0S"));
        assertRefusedAndNothingWritten(body -> body.put("payTimeout", "PT0.5S"));
        assertRefusedAndNothingWritten(body -> body.put("payTimeout", "-PT5M"));
        assertRefusedAndNothingWritten(body -> body.put("payTimeout", "P2D"));
    }

    @Test
    void refusesWindowEndingBeforeItStartsWith400AndWritesNothing() {
        assertRefusedAndNothingWritten(body -> {
            body.put("startsAt", "2030-01-01T11:00:00Z");
            body.put("endsAt", "2030-01-01T10:00:00Z");
        });
        assertRefusedAndNothingWritten(body -> {
            body.put("startsAt", "2030-01-01T11:00:00Z");
            body.put("endsAt", "2030-01-01T11:00:00Z");
        });
    }

    @Test
    void refusesIllegalIdsAndNamesWith400AndWritesNothing() {
        assertRefusedAndNothingWritten(body -> body.put("id", "a-b"));
        assertRefusedAndNothingWritten(body -> body.put("id", "../x"));
        assertRefusedAndNothingWritten(body -> body.put("id", "x}:stock"));
        assertRefusedAndNothingWritten(body -> body.put("id", "x".repeat(41)));
        assertRefusedAndNothingWritten(body -> body.put("id", ""));
        assertRefusedAndNothingWritten(body -> body.put("name", " "));
        assertRefusedAndNothingWritten(body -> body.put("name", "n".repeat(201)));
    }

    @Test
    void storesPayTimeoutInWholeSecondsSoTheSameBodyIsIdempotent() {
        Map<String, Object> body = saleBody(2);
        body.put("payTimeout", "PT1.5S");
        String id = createSale(body);

        api.createSale(ADMIN, body).assertStatus(200);

        assertThat(api.sale(ADMIN, id).field("payTimeout")).isEqualTo("PT1S");
    }

    /**
     * sales.starts_at/ends_at are TIMESTAMP(3) (1970-01-01 to 2038-01-19): times outside that range
     * are refused up front, never half-written or stored as NULL (a sale without end).
     */
    @Test
    void refusesSaleTimesMySqlCannotStoreWith400AndWritesNothing() {
        assertRefusedAndNothingWritten(body -> body.put("endsAt", "2040-01-01T00:00:00Z"));
        assertRefusedAndNothingWritten(body -> body.put("startsAt", "1969-12-31T00:00:00Z"));
    }

    private void assertRefusedAndNothingWritten(Consumer<Map<String, Object>> spoil) {
        Map<String, Object> body = saleBody(5);
        spoil.accept(body);
        String id = String.valueOf(body.get("id"));
        StoreSnapshot before = stores.snapshot(id);

        api.createSale(ADMIN, body).assertProblem(400, "invalid-request");

        assertThat(stores.snapshot(id)).as("after %s", body).isEqualTo(before);
    }
}
