package io.flashsale.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.testing.Race;
import io.flashsale.stores.testing.StoreSnapshot;
import io.flashsale.testkit.ApiClient.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Bursts against the purchase endpoint's token buckets (per user, per client address, each per
 * sale). The sales here open in an hour, so every request that passes the limiter answers
 * sale-not-open and writes nothing but its token; the buckets are set per sale ({@code rateLimits}).
 */
class RateLimitIT extends ApiIntegrationTest {

    @Test
    void letsExactlyTheCapacityOfOneUsersBurstThroughAndAnswersTheRest429() throws InterruptedException {
        String sale = startsLater(limited(saleBody(3), Map.of("capacity", 3, "refillPerSecond", 0.1), null));
        String token = TestTokens.buyer(newUser());
        List<Callable<Response>> burst = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String key = "key-" + i;
            burst.add(() -> api.purchase(token, sale, key));
        }

        List<Response> answers = answers(Race.run(burst));

        assertThat(answers).filteredOn(r -> r.status() == 409).hasSize(3);
        Response refused = single429(answers);
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()))
                .isBetween(1L, 10L);
        assertThat(refused.body().path("retryAfterSeconds").asLong()).isBetween(1L, 10L);
        assertRefusedAndNothingWritten(sale, () -> api.purchase(token, sale, "key-9"));
        api.purchase(TestTokens.buyer(newUser()), sale, "key-1").assertProblem(409, "sale-not-open");
    }

    @Test
    void letsExactlyTheCapacityOfOneAddressThroughAcrossUsersWhateverXForwardedForSays() throws InterruptedException {
        String sale = startsLater(limited(saleBody(3), null, Map.of("capacity", 4, "refillPerSecond", 0.1)));
        List<Callable<Response>> burst = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String token = TestTokens.buyer(newUser());
            String[] spoofed = {"X-Forwarded-For", "10.0.0." + i, "X-Real-IP", "10.0.1." + i};
            burst.add(() -> api.purchase(token, sale, "key-1", spoofed));
        }

        List<Response> answers = answers(Race.run(burst));

        assertThat(answers).filteredOn(r -> r.status() == 409).hasSize(4);
        assertThat(answers).filteredOn(r -> r.status() == 429).hasSize(2).allSatisfy(RateLimitIT::assertLimited);
        assertThat(stores.buckets(sale).keySet())
                .filteredOn(key -> key.startsWith(stores.addressBucket(sale, "")))
                .singleElement()
                .isEqualTo(stores.addressBucket(sale, "127.0.0.1"));
        String newcomer = TestTokens.buyer(newUser());
        assertRefusedAndNothingWritten(
                sale, () -> api.purchase(newcomer, sale, "key-1", "X-Forwarded-For", "203.0.113.9"));
    }

    @Test
    void keepsASalesOwnLimitsWhenARepairReloadsTheSaleRedisLost() {
        String sale = startsLater(limited(saleBody(3), Map.of("capacity", 1, "refillPerSecond", 0.1), null));
        assertThat(stores.loseSale(sale)).isPositive();

        api.repair(ADMIN, sale).assertStatus(200);

        Response view = api.sale(ADMIN, sale).assertStatus(200);
        assertThat(view.body()
                        .path("rateLimits")
                        .path("perUser")
                        .path("capacity")
                        .asInt())
                .isEqualTo(1);
        assertThat(view.body().path("rateLimits").has("perAddress")).isFalse();

        String token = TestTokens.buyer(newUser());
        api.purchase(token, sale, "key-1").assertProblem(409, "sale-not-open");
        assertRefusedAndNothingWritten(sale, () -> api.purchase(token, sale, "key-2"));
    }

    @Test
    void appliesTheConfiguredPerUserDefaultWhenTheSaleSetsNone() throws InterruptedException {
        String sale = startsLater(saleBody(3));
        assertThat(api.sale(ADMIN, sale).body().has("rateLimits")).isFalse();
        String token = TestTokens.buyer(newUser());
        List<Callable<Response>> burst = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            burst.add(() -> api.purchase(token, sale, "key-1"));
        }

        List<Response> answers = answers(Race.run(burst));

        // default per-user bucket: capacity 5, refill 1/s (a slow run may see one more token)
        assertThat(answers).filteredOn(r -> r.status() == 409).hasSizeBetween(5, 6);
        assertThat(answers).filteredOn(r -> r.status() == 429).isNotEmpty();
    }

    /**
     * A sold-out answer from Redis spends a token like any other; once the sale's sold-out mark is
     * set, the api answers from memory, which costs less than the bucket check and spends nothing.
     */
    @Test
    void spendsATokenOnSoldOutAnswersFromRedisButNotOnThoseFromMemory() {
        String sale = createSale(limited(saleBody(1), Map.of("capacity", 2, "refillPerSecond", 0.1), null));
        String winner = newUser();
        api.purchase(TestTokens.buyer(winner), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(winner), purchaseId(sale, winner), "PENDING_PAYMENT");
        String botId = newUser();
        String bot = TestTokens.buyer(botId);
        SortedMap<String, String> untouched = stores.buckets(sale);

        api.purchase(bot, sale, "key-1").assertProblem(409, "sold-out");
        SortedMap<String, String> spentOne = stores.buckets(sale);
        for (int i = 2; i <= 6; i++) {
            api.purchase(bot, sale, "key-" + i).assertProblem(409, "sold-out");
        }

        assertThat(spentOne).isNotEqualTo(untouched);
        assertThat(stores.buckets(sale)).isEqualTo(spentOne);
        // the winner is one of the sale's buyers: never answered from memory, so the bucket counts
        api.purchase(TestTokens.buyer(winner), sale, "key-2").assertProblem(409, "already-purchased");
        assertRefusedAndNothingWritten(sale, () -> api.purchase(TestTokens.buyer(winner), sale, "key-3"));
    }

    @Test
    void refusesInvalidRateLimitOverridesWith400AndWritesNothing() {
        assertSaleRefused(body -> limited(body, Map.of("capacity", -1, "refillPerSecond", 1), null));
        assertSaleRefused(body -> limited(body, Map.of("capacity", 5, "refillPerSecond", 0), null));
        assertSaleRefused(body -> limited(body, null, Map.of("capacity", 2_000_000, "refillPerSecond", 1)));
        assertSaleRefused(body -> limited(body, null, Map.of("capacity", 5, "refillPerSecond", "fast")));
    }

    private void assertRefusedAndNothingWritten(String sale, Supplier<Response> request) {
        StoreSnapshot before = stores.snapshot(sale);
        SortedMap<String, String> bucketsBefore = stores.buckets(sale);

        Response refused = request.get().assertProblem(429, "rate-limited");

        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(stores.snapshot(sale)).isEqualTo(before);
        assertThat(stores.buckets(sale)).isEqualTo(bucketsBefore);
    }

    private void assertSaleRefused(Consumer<Map<String, Object>> spoil) {
        Map<String, Object> body = saleBody(5);
        spoil.accept(body);
        String id = (String) body.get("id");
        StoreSnapshot before = stores.snapshot(id);

        api.createSale(ADMIN, body).assertProblem(400, "invalid-request");

        assertThat(stores.snapshot(id)).as("after %s", body).isEqualTo(before);
    }

    private static Map<String, Object> limited(
            Map<String, Object> body, Map<String, Object> perUser, Map<String, Object> perAddress) {
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("perUser", perUser);
        limits.put("perAddress", perAddress);
        body.put("rateLimits", limits);
        return body;
    }

    private static List<Response> answers(List<Race.Outcome<Response>> outcomes) {
        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome.failure()).isNull());
        return outcomes.stream().map(Race.Outcome::value).toList();
    }

    private static void assertLimited(Response response) {
        response.assertProblem(429, "rate-limited");
        assertThat(response.headers().firstValue("Retry-After")).isPresent();
    }

    private static Response single429(List<Response> answers) {
        List<Response> limited = answers.stream().filter(r -> r.status() == 429).toList();
        assertThat(limited).hasSize(1);
        return limited.get(0).assertProblem(429, "rate-limited");
    }
}
