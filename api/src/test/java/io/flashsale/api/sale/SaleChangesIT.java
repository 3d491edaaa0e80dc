package io.flashsale.api.sale;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.testing.StoreSnapshot;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.ApiClient.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Closing, moving, restocking and withdrawing from a sale over HTTP: answers, refusals, the trail. */
class SaleChangesIT extends ApiIntegrationTest {

    @Test
    void closesTheSaleNowAndKeepsItsOrdersPayable() {
        String sale = openSale(3);
        String buyer = newUser();
        String purchase = purchaseId(sale, buyer);
        api.purchase(TestTokens.buyer(buyer), sale, "k1").assertStatus(202);
        awaitStatus(TestTokens.buyer(buyer), purchase, "PENDING_PAYMENT");

        Response closed = api.post("/api/sales/" + sale + "/close", ADMIN, null).assertStatus(200);

        assertThat(closed.field("endsAt")).isNotNull();
        assertThat(change(closed, 0).path("kind").asText()).isEqualTo("CLOSE");
        assertThat(change(closed, 0).path("changedBy").asText()).isEqualTo("admin");
        assertThat(change(closed, 0).path("endsAt").asText()).isEqualTo(closed.field("endsAt"));
        api.purchase(TestTokens.buyer(newUser()), sale, "k2").assertProblem(409, "sale-not-open");
        api.purchase(TestTokens.buyer(buyer), sale, "k1").assertStatus(200);
        api.pay(PAYMENTS, purchase, "pay-" + buyer).assertStatus(200);
        awaitStatus(TestTokens.buyer(buyer), purchase, "PAID");
        Response again = api.post("/api/sales/" + sale + "/close", ADMIN, null).assertStatus(200);
        assertThat(again.field("endsAt")).isEqualTo(closed.field("endsAt"));
        assertThat(again.body().path("changes")).hasSize(1);
        assertThat(api.audit(ADMIN, sale).field("result")).isEqualTo("PASS");
    }

    @Test
    void restockAddsTheUnitsOncePerIdempotencyKey() {
        String sale = openSale(2);

        Response first = api.post(
                        "/api/sales/" + sale + "/restock",
                        ADMIN,
                        Map.of("units", 3),
                        ApiClient.IDEMPOTENCY_KEY,
                        "more-1")
                .assertStatus(200);
        Response again = api.post(
                        "/api/sales/" + sale + "/restock",
                        ADMIN,
                        Map.of("units", 3),
                        ApiClient.IDEMPOTENCY_KEY,
                        "more-1")
                .assertStatus(200);

        for (Response answer : new Response[] {first, again}) {
            assertThat(answer.body().path("total").asInt()).isEqualTo(5);
            assertThat(answer.body().path("available").asInt()).isEqualTo(5);
            assertThat(answer.body().path("redisStock").asLong()).isEqualTo(5);
            assertThat(answer.body().path("changes")).hasSize(1);
        }
        JsonNode change = change(again, 0);
        assertThat(change.path("kind").asText()).isEqualTo("RESTOCK");
        assertThat(change.path("key").asText()).isEqualTo("more-1");
        assertThat(change.path("units").asInt()).isEqualTo(3);
        assertThat(change.path("changedBy").asText()).isEqualTo("admin");
        assertThat(change.path("changedAt").asText()).isNotEmpty();
        assertThat(api.audit(ADMIN, sale).field("result")).isEqualTo("PASS");
    }

    @Test
    void refusesAnIdempotencyKeyReusedForAnotherChangeAndWritesNothing() {
        String sale = openSale(2);
        api.post("/api/sales/" + sale + "/restock", ADMIN, Map.of("units", 3), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertStatus(200);
        StoreSnapshot before = stores.snapshot(sale);

        api.post("/api/sales/" + sale + "/restock", ADMIN, Map.of("units", 4), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertProblem(409, "change-conflict");
        api.post("/api/sales/" + sale + "/withdraw", ADMIN, Map.of("units", 3), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertProblem(409, "change-conflict");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    @Test
    void refusesAMissingOrMalformedKeyAndUnitsOutOfRangeAndWritesNothing() {
        String sale = openSale(2);
        StoreSnapshot before = stores.snapshot(sale);

        api.post("/api/sales/" + sale + "/restock", ADMIN, Map.of("units", 1), ApiClient.IDEMPOTENCY_KEY, null)
                .assertProblem(400, "invalid-idempotency-key");
        api.post("/api/sales/" + sale + "/withdraw", ADMIN, Map.of("units", 1), ApiClient.IDEMPOTENCY_KEY, "no spaces")
                .assertProblem(400, "invalid-idempotency-key");
        api.post("/api/sales/" + sale + "/restock", ADMIN, Map.of("units", 0), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertProblem(400, "invalid-request");
        api.post("/api/sales/" + sale + "/withdraw", ADMIN, Map.of("units", -1), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertProblem(400, "invalid-request");
        api.post("/api/sales/" + sale + "/restock", ADMIN, Map.of("units", 2_000_000), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertProblem(400, "invalid-request");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    @Test
    void withdrawalTakesOnlyUnitsNeitherSoldNorHeld() {
        String sale = openSale(3);
        String buyer = newUser();
        api.purchase(TestTokens.buyer(buyer), sale, "k1").assertStatus(202);
        awaitStatus(TestTokens.buyer(buyer), purchaseId(sale, buyer), "PENDING_PAYMENT");

        Response withdrawn = api.post(
                        "/api/sales/" + sale + "/withdraw",
                        ADMIN,
                        Map.of("units", 5),
                        ApiClient.IDEMPOTENCY_KEY,
                        "less-1")
                .assertStatus(200);

        assertThat(withdrawn.body().path("total").asInt()).isEqualTo(1);
        assertThat(withdrawn.body().path("available").asInt()).isZero();
        assertThat(withdrawn.body().path("redisStock").asLong()).isZero();
        assertThat(withdrawn.body().path("pendingPayment").asInt()).isEqualTo(1);
        assertThat(change(withdrawn, 0).path("unitsAsked").asInt()).isEqualTo(5);
        assertThat(change(withdrawn, 0).path("units").asInt()).isEqualTo(-2);
        api.purchase(TestTokens.buyer(newUser()), sale, "k2").assertProblem(409, "sold-out");
        assertThat(api.audit(ADMIN, sale).field("result")).isEqualTo("PASS");
    }

    @Test
    void movesTheWindowInBothStores() {
        String sale = startsLater(saleBody(2));
        Instant starts = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.SECONDS);
        Instant ends = starts.plus(Duration.ofHours(1));
        Map<String, Object> window = Map.of("startsAt", starts.toString(), "endsAt", ends.toString());

        Response moved = api.post("/api/sales/" + sale + "/move", ADMIN, window).assertStatus(200);
        Response again = api.post("/api/sales/" + sale + "/move", ADMIN, window).assertStatus(200);

        assertThat(moved.field("startsAt")).isEqualTo(starts.toString());
        assertThat(moved.field("endsAt")).isEqualTo(ends.toString());
        assertThat(again.body().path("changes")).hasSize(1);
        assertThat(change(again, 0).path("kind").asText()).isEqualTo("MOVE");
        api.purchase(TestTokens.buyer(newUser()), sale, "k1").assertProblem(409, "sale-not-open");
    }

    @Test
    void opensASaleEarlierByMovingItsStartToNow() {
        String sale = startsLater(saleBody(2));

        api.post(
                        "/api/sales/" + sale + "/move",
                        ADMIN,
                        Map.of("startsAt", Instant.now().plusMillis(300).toString()))
                .assertStatus(200);

        Response admitted = awaitAdmission(sale);
        assertThat(admitted.status()).isEqualTo(202);
    }

    @Test
    void refusesAWindowInThePastOrBackwardsAndWritesNothing() {
        String sale = startsLater(saleBody(2));
        StoreSnapshot before = stores.snapshot(sale);
        String past = Instant.now().minus(Duration.ofMinutes(1)).toString();
        String later = Instant.now().plus(Duration.ofHours(3)).toString();
        String sooner = Instant.now().plus(Duration.ofHours(2)).toString();

        api.post("/api/sales/" + sale + "/move", ADMIN, Map.of("endsAt", past)).assertProblem(422, "window-in-past");
        api.post("/api/sales/" + sale + "/move", ADMIN, Map.of("startsAt", past))
                .assertProblem(422, "window-in-past");
        api.post("/api/sales/" + sale + "/move", ADMIN, Map.of("startsAt", later, "endsAt", sooner))
                .assertProblem(400, "invalid-request");
        api.post("/api/sales/" + sale + "/move", ADMIN, Map.of()).assertProblem(400, "invalid-request");
        api.post("/api/sales/" + sale + "/move", ADMIN, Map.of("endsAt", "2040-01-01T00:00:00Z"))
                .assertProblem(400, "invalid-request");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    @Test
    void refusesToRestockOrMoveAClosedSaleAndWritesNothing() {
        String sale = openSale(2);
        api.post("/api/sales/" + sale + "/close", ADMIN, null).assertStatus(200);
        StoreSnapshot before = stores.snapshot(sale);
        String later = Instant.now().plus(Duration.ofHours(1)).toString();

        api.post("/api/sales/" + sale + "/restock", ADMIN, Map.of("units", 1), ApiClient.IDEMPOTENCY_KEY, "more")
                .assertProblem(409, "sale-closed");
        api.post("/api/sales/" + sale + "/move", ADMIN, Map.of("endsAt", later)).assertProblem(409, "sale-closed");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
        assertThat(api.get("/api/sales/" + sale, ADMIN).body().path("changes")).hasSize(1);
    }

    @Test
    void refusesChangesWithoutTheAdminScopeAndWritesNothing() {
        String sale = openSale(2);
        StoreSnapshot before = stores.snapshot(sale);
        String mallory = TestTokens.buyer("mallory");

        api.post("/api/sales/" + sale + "/close", mallory, null).assertProblem(403, "forbidden");
        api.post("/api/sales/" + sale + "/restock", mallory, Map.of("units", 1), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertProblem(403, "forbidden");
        api.post("/api/sales/" + sale + "/withdraw", mallory, Map.of("units", 1), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertProblem(403, "forbidden");
        api.post(
                        "/api/sales/" + sale + "/move",
                        mallory,
                        Map.of("endsAt", Instant.now().plusSeconds(600).toString()))
                .assertProblem(403, "forbidden");
        api.post("/api/sales/" + sale + "/close", null, null).assertProblem(401, "unauthorized");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    @Test
    void answersUnknownSaleWith404() {
        api.post("/api/sales/" + "tnosuchsale" + "/close", ADMIN, null).assertProblem(404, "sale-not-found");
        api.post("/api/sales/" + "tnosuchsale" + "/restock", ADMIN, Map.of("units", 1), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertProblem(404, "sale-not-found");
        api.post("/api/sales/" + "a-b" + "/withdraw", ADMIN, Map.of("units", 1), ApiClient.IDEMPOTENCY_KEY, "k")
                .assertProblem(404, "sale-not-found");
    }

    private Response awaitAdmission(String sale) {
        Instant deadline = Instant.now().plusSeconds(10);
        Response answer = api.purchase(TestTokens.buyer(newUser()), sale, "k1");
        while (answer.status() == 409 && Instant.now().isBefore(deadline)) {
            pause();
            answer = api.purchase(TestTokens.buyer(newUser()), sale, "k1");
        }
        return answer;
    }

    private static JsonNode change(Response sale, int index) {
        return sale.body().path("changes").path(index);
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
