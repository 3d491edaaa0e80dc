package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.testing.Race;
import io.flashsale.stores.testing.StoreSnapshot;
import io.flashsale.testkit.ApiClient.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PurchaseAdmissionIT extends ApiIntegrationTest {

    @Test
    void admitsFirstPurchaseWith202Reserved() throws InterruptedException {
        String sale = openSale(3);
        String user = newUser();
        String purchaseId = purchaseId(sale, user);

        Response admitted = api.purchase(TestTokens.buyer(user), sale, "key-1").assertStatus(202);

        assertThat(admitted.field("purchaseId")).isEqualTo(purchaseId);
        assertThat(admitted.field("saleId")).isEqualTo(sale);
        assertThat(admitted.field("userId")).isEqualTo(user);
        assertThat(admitted.field("status")).isEqualTo("RESERVED");
        assertThat(admitted.headers().firstValue("Location")).hasValue("/api/purchases/" + purchaseId);
        assertThat(admitted.body().path("links").path("self").asText()).isEqualTo("/api/purchases/" + purchaseId);
        assertThat(admitted.body().path("links").path("payment").asText())
                .isEqualTo("/api/purchases/" + purchaseId + "/payment");
        assertThat(admitted.body().path("links").path("cancel").asText())
                .isEqualTo("/api/purchases/" + purchaseId + "/cancel");
        StoreSnapshot after = stores.snapshot(sale);
        assertThat(after.stock()).isEqualTo("2");
        assertThat(after.buyers()).containsOnlyKeys(user);
        assertThat(after.holds()).containsExactly(Map.entry(purchaseId, "HELD"));
        awaitStatus(TestTokens.buyer(user), purchaseId, "PENDING_PAYMENT");
        awaitOutboxEmpty(sale);
        assertThat(stores.orders(sale)).containsExactly(purchaseId + " PENDING_PAYMENT -");
    }

    @Test
    void admitsExactlyTheStockWhenUsersRaceTwiceWithTheSameKey() throws InterruptedException {
        String sale = openSale(4);
        List<String> users = IntStream.range(0, 10).mapToObj(i -> newUser()).toList();
        List<Callable<Response>> calls = new ArrayList<>();
        for (String user : users) {
            calls.add(() -> api.purchase(TestTokens.buyer(user), sale, "key-" + user));
            calls.add(() -> api.purchase(TestTokens.buyer(user), sale, "key-" + user));
        }

        List<Race.Outcome<Response>> outcomes = Race.run(calls);

        Map<String, Long> byOutcome = outcomes.stream()
                .map(outcome -> outcome.value().status() + " " + outcome.value().field("type"))
                .collect(Collectors.groupingBy(outcome -> outcome.replaceAll(" .*/", " "), Collectors.counting()));
        assertThat(byOutcome)
                .containsOnly(Map.entry("202 null", 4L), Map.entry("200 null", 4L), Map.entry("409 sold-out", 12L));
        List<String> admitted = outcomes.stream()
                .map(Race.Outcome::value)
                .filter(response -> response.status() == 202)
                .map(response -> response.field("userId"))
                .toList();
        admitted.forEach(user -> awaitStatus(TestTokens.buyer(user), purchaseId(sale, user), "PENDING_PAYMENT"));
        StoreSnapshot after = stores.snapshot(sale);
        assertThat(after.stock()).isEqualTo("0");
        assertThat(after.buyers()).containsOnlyKeys(admitted);
        assertThat(after.holds().values()).containsExactly("HELD", "HELD", "HELD", "HELD");
        assertThat(after.saleAvailable()).isZero();
        assertThat(after.saleOrders()).hasSize(4).allMatch(order -> order.endsWith(" PENDING_PAYMENT -"));
    }

    @Test
    void sameIdempotencyKeyTwentyTimesConcurrentlyAdmitsOnceAndAnswersTheRestWithTheSamePurchase()
            throws InterruptedException {
        Map<String, Object> body = saleBody(3);
        // the limiter off for this sale (capacity 0 = no bucket; refill must stay positive): the api's
        // default burst of 5 per user would answer most of the 20 requests 429 and hide the race
        Map<String, Object> off = Map.of("capacity", 0, "refillPerSecond", 1);
        body.put("rateLimits", Map.of("perUser", off, "perAddress", off));
        String sale = createSale(body);
        String user = newUser();
        String token = TestTokens.buyer(user);
        String purchaseId = purchaseId(sale, user);
        List<Callable<Response>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(() -> api.purchase(token, sale, "same-key"));
        }

        List<Race.Outcome<Response>> outcomes = Race.run(calls);

        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome.failure()).isNull());
        List<Response> answers = outcomes.stream().map(Race.Outcome::value).toList();
        assertThat(answers.stream().collect(Collectors.groupingBy(Response::status, Collectors.counting())))
                .containsOnly(Map.entry(202, 1L), Map.entry(200, 19L));
        assertThat(answers)
                .allSatisfy(answer -> assertThat(answer.field("purchaseId")).isEqualTo(purchaseId));
        awaitStatus(token, purchaseId, "PENDING_PAYMENT");
        awaitOutboxEmpty(sale);
        StoreSnapshot after = stores.snapshot(sale);
        assertThat(after.stock()).as("stock down by exactly one").isEqualTo("2");
        assertThat(after.saleAvailable()).isEqualTo(2);
        assertThat(after.buyers()).containsOnlyKeys(user);
        assertThat(after.holds()).containsExactly(Map.entry(purchaseId, "HELD"));
        assertThat(after.admissions())
                .as("one admission, its workflow started by the api and its stream entry dropped")
                .isZero();
        assertThat(after.saleOrders())
                .as("one workflow wrote one order")
                .containsExactly(purchaseId + " PENDING_PAYMENT -");
        assertThat(stores.buckets(sale)).as("no bucket was used").isEmpty();
    }

    @Test
    void answersSameKeyAgainWith200SamePurchaseAndWritesNothing() {
        PendingBuyer buyer = pendingBuyer(3);
        StoreSnapshot before = stores.snapshot(buyer.sale());

        Response again = api.purchase(buyer.token(), buyer.sale(), "key-1").assertStatus(200);

        assertThat(again.field("purchaseId")).isEqualTo(buyer.purchaseId());
        assertThat(again.field("hold"))
                .as("answered from Redis, not the workflow")
                .isEqualTo("HELD");
        assertThat(again.field("status")).isEqualTo("RESERVED");
        assertThat(stores.snapshot(buyer.sale())).isEqualTo(before);
    }

    @Test
    void refusesSecondPurchaseBySameUserWithOtherKeyAndWritesNothing() {
        PendingBuyer buyer = pendingBuyer(3);
        StoreSnapshot before = stores.snapshot(buyer.sale());

        Response refused = api.purchase(buyer.token(), buyer.sale(), "key-2").assertProblem(409, "already-purchased");

        assertThat(refused.field("purchaseId")).isEqualTo(buyer.purchaseId());
        assertThat(stores.snapshot(buyer.sale())).isEqualTo(before);
    }

    @Test
    void refusesPurchaseWhenSoldOutAndWritesNothing() {
        String sale = pendingBuyer(1).sale();
        StoreSnapshot before = stores.snapshot(sale);

        String late = newUser();
        api.purchase(TestTokens.buyer(late), sale, "key-1").assertProblem(409, "sold-out");
        api.purchase(TestTokens.buyer(late), sale, "key-1").assertProblem(409, "sold-out");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
        assertThat(before.stock()).isEqualTo("0");
        api.status(TestTokens.buyer(late), purchaseId(sale, late)).assertProblem(404, "purchase-not-found");
    }

    @Test
    void refusesPurchaseBeforeTheSaleOpensAndWritesNothing() {
        String sale = startsLater(saleBody(3));
        StoreSnapshot before = stores.snapshot(sale);

        api.purchase(TestTokens.buyer(newUser()), sale, "key-1").assertProblem(409, "sale-not-open");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
        assertThat(before.stock()).isEqualTo("3");
    }

    @Test
    void refusesPurchaseAfterTheSaleClosedAndWritesNothing() {
        Map<String, Object> body = saleBody(3);
        body.put("startsAt", "2020-01-01T00:00:00Z");
        body.put("endsAt", "2020-01-02T00:00:00Z");
        String sale = createSale(body);
        StoreSnapshot before = stores.snapshot(sale);

        api.purchase(TestTokens.buyer(newUser()), sale, "key-1").assertProblem(409, "sale-not-open");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    @Test
    void refusesPurchaseOfUnknownSaleWith404AndWritesNothing() {
        StoreSnapshot before = stores.snapshot("tnosuchsale");

        api.purchase(TestTokens.buyer(newUser()), "tnosuchsale", "key-1").assertProblem(404, "sale-not-found");
        api.purchase(TestTokens.buyer(newUser()), "a-b", "key-1").assertProblem(404, "sale-not-found");
        api.purchase(TestTokens.buyer(newUser()), "x%7D:stock", "key-1").assertProblem(404, "sale-not-found");

        assertThat(stores.snapshot("tnosuchsale")).isEqualTo(before);
    }

    @Test
    void refusesMissingIdempotencyKeyWith400AndWritesNothing() {
        String sale = openSale(3);
        StoreSnapshot before = stores.snapshot(sale);

        api.purchase(TestTokens.buyer(newUser()), sale, null).assertProblem(400, "invalid-idempotency-key");
        api.purchase(TestTokens.buyer(newUser()), sale, "").assertProblem(400, "invalid-idempotency-key");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    @Test
    void refusesTooLongOrIllegalIdempotencyKeyWith400AndWritesNothing() {
        String sale = openSale(3);
        String token = TestTokens.buyer(newUser());
        StoreSnapshot before = stores.snapshot(sale);

        api.purchase(token, sale, "k".repeat(65)).assertProblem(400, "invalid-idempotency-key");
        api.purchase(token, sale, "key with spaces").assertProblem(400, "invalid-idempotency-key");
        api.purchase(token, sale, "key|pipe").assertProblem(400, "invalid-idempotency-key");
        api.purchase(token, sale, "{sale:x}").assertProblem(400, "invalid-idempotency-key");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
        api.purchase(token, sale, "k".repeat(64)).assertStatus(202);
    }

    @Test
    void answersARetryWithTheSameKeyAfterTheSaleClosedWith200SamePurchase() throws InterruptedException {
        Map<String, Object> body = saleBody(3);
        Instant closes = Instant.now().plusSeconds(3);
        body.put("endsAt", closes.toString());
        String sale = createSale(body);
        String user = newUser();
        String token = TestTokens.buyer(user);
        api.purchase(token, sale, "key-1").assertStatus(202);
        awaitStatus(token, purchaseId(sale, user), "PENDING_PAYMENT");
        // elapsed time: the sale's window closes (endsAt passes on the clock the api and Lua read)
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), closes).toMillis()) + 200);

        Response again = api.purchase(token, sale, "key-1").assertStatus(200);

        assertThat(again.field("purchaseId")).isEqualTo(purchaseId(sale, user));
        assertThat(again.field("hold")).isEqualTo("HELD");
        api.purchase(token, sale, "key-2").assertProblem(409, "sale-not-open");
        api.purchase(TestTokens.buyer(newUser()), sale, "key-1").assertProblem(409, "sale-not-open");
    }

    @Test
    void answersARetryWithTheSameKeyWhileRateLimitedWith200SamePurchase() {
        Map<String, Object> body = saleBody(3);
        Map<String, Object> oneRequest = Map.of("capacity", 1, "refillPerSecond", 0.001);
        body.put("rateLimits", Map.of("perUser", oneRequest));
        String sale = createSale(body);
        String user = newUser();
        String token = TestTokens.buyer(user);
        api.purchase(token, sale, "key-1").assertStatus(202);

        Response again = api.purchase(token, sale, "key-1").assertStatus(200);

        assertThat(again.field("purchaseId")).isEqualTo(purchaseId(sale, user));
        api.purchase(token, sale, "key-2").assertProblem(429, "rate-limited");
    }

    /** A new user whose purchase (key {@code key-1}) in a new sale of {@code units} awaits payment. */
    private PendingBuyer pendingBuyer(int units) {
        String sale = openSale(units);
        String user = newUser();
        String token = TestTokens.buyer(user);
        api.purchase(token, sale, "key-1").assertStatus(202);
        awaitStatus(token, purchaseId(sale, user), "PENDING_PAYMENT");
        return new PendingBuyer(sale, token, purchaseId(sale, user));
    }

    private record PendingBuyer(String sale, String token, String purchaseId) {}

    @Test
    void answersWithTheSecurityHeadersOfEveryOtherAnswerAndRefusesOddShapes() {
        String sale = openSale(2);
        String user = newUser();
        String buyer = TestTokens.buyer(user);
        Response admitted = api.purchase(buyer, sale, "key-1").assertStatus(202);
        Response status = api.status(buyer, purchaseId(sale, user)).assertStatus(200);

        for (String header : new String[] {
            "X-Content-Type-Options", "X-XSS-Protection", "Cache-Control", "Pragma", "Expires", "X-Frame-Options"
        }) {
            assertThat(admitted.headers().allValues(header))
                    .as(header)
                    .isNotEmpty()
                    .isEqualTo(status.headers().allValues(header));
        }
        String path = "/api/sales/" + sale + "/purchases";
        api.send("POST", path, buyer, null, "Idempotency-Key", "k1", "Idempotency-Key", "k2")
                .assertProblem(400, "invalid-idempotency-key");
        api.send("POST", "/api/sales/" + sale + ";x=1/purchases", buyer, null, "Idempotency-Key", "k3")
                .assertProblem(404, "sale-not-found");
        assertThat(stores.redisStock(sale))
                .as("only the first buyer's unit taken")
                .isEqualTo(1L);
    }

    @Test
    void documentsThePurchaseInTheOpenApiDescription() {
        Response docs = api.get("/v3/api-docs", null).assertStatus(200);

        var operation =
                docs.body().path("paths").path("/api/sales/{saleId}/purchases").path("post");
        assertThat(operation.path("responses").has("202")).as(docs.text()).isTrue();
        assertThat(operation.path("responses").has("429")).isTrue();
    }

    /** The api drops the outbox entry right after its start queue started the workflow. */
    private void awaitOutboxEmpty(String sale) throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
        while (stores.admissions(sale) > 0) {
            assertThat(System.nanoTime())
                    .as("the api started the workflow and dropped its outbox entry")
                    .isLessThan(deadline);
            Thread.sleep(20); // polling Redis: the drop follows the start within milliseconds
        }
    }
}
