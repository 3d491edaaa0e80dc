package io.flashsale.api.sale;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.testing.Race;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.ApiClient.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Sale changes while buyers race for the sale, with exact counts: a restock of a sold-out sale sells
 * exactly the added units, a close admits nobody after its answer, withdrawals never leave Redis and
 * MySQL apart; the audit passes after each. The sales have no rate limit, so every answer is the
 * sale's.
 */
class SaleChangeRacesIT extends ApiIntegrationTest {

    /** How long buyers keep trying after the change answered. */
    private static final Duration AFTERWARDS = Duration.ofSeconds(2);

    @Test
    void restockDuringABurstOnASoldOutSaleSellsExactlyTheAddedUnitsToDistinctBuyers() throws Exception {
        String sale = unlimitedSale(3);
        List<String> early = users(3);
        early.forEach(user -> api.purchase(TestTokens.buyer(user), sale, "k").assertStatus(202));
        early.forEach(user -> awaitStatus(TestTokens.buyer(user), purchaseId(sale, user), "PENDING_PAYMENT"));
        api.purchase(TestTokens.buyer(newUser()), sale, "k").assertProblem(409, "sold-out");
        AtomicReference<Instant> restocked = new AtomicReference<>();
        List<Callable<Response>> calls = new ArrayList<>();
        for (String user : users(20)) {
            calls.add(() -> buyUntilAdmittedOrAfter(sale, user, restocked));
        }
        calls.add(() -> {
            pause(Duration.ofMillis(300));
            Response restock = api.post(
                    "/api/sales/" + sale + "/restock", ADMIN, Map.of("units", 5), ApiClient.IDEMPOTENCY_KEY, "more");
            restocked.set(Instant.now());
            return restock;
        });

        List<Response> answers = values(Race.run(calls));

        answers.remove(answers.size() - 1).assertStatus(200);
        assertThat(outcomes(answers)).containsOnly(Map.entry("202", 5L), Map.entry("409 sold-out", 15L));
        List<String> winners = winners(answers);
        assertThat(winners).doesNotHaveDuplicates().hasSize(5);
        winners.forEach(user -> awaitStatus(TestTokens.buyer(user), purchaseId(sale, user), "PENDING_PAYMENT"));
        assertSale(sale, 8, 0, 8);
        assertAuditPasses(sale);
    }

    @Test
    void closingDuringABurstAdmitsNobodyAfterTheClosesAnswer() throws Exception {
        String sale = unlimitedSale(1000);
        Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();
        AtomicReference<Instant> closed = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Callable<Response>> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            calls.add(() -> buyUntil(stop, sale, attempts));
        }
        calls.add(() -> {
            pause(Duration.ofMillis(1500));
            Response close = api.post("/api/sales/" + sale + "/close", ADMIN, null);
            closed.set(Instant.now());
            pause(AFTERWARDS);
            stop.set(true);
            return close;
        });

        List<Response> answers = values(Race.run(calls));

        answers.get(answers.size() - 1).assertStatus(200);
        List<Attempt> after =
                attempts.stream().filter(a -> a.sent().isAfter(closed.get())).toList();
        List<Attempt> admitted =
                attempts.stream().filter(a -> a.status() == 202).toList();
        assertThat(after).isNotEmpty().allSatisfy(a -> assertThat(a.outcome()).isEqualTo("409 sale-not-open"));
        assertThat(admitted).isNotEmpty().allSatisfy(a -> assertThat(a.sent()).isBefore(closed.get()));
        assertThat(attempts).allSatisfy(a -> assertThat(a.outcome()).isIn("202", "409 sale-not-open"));
        admitted.forEach(a -> awaitStatus(TestTokens.buyer(a.user()), purchaseId(sale, a.user()), "PENDING_PAYMENT"));
        assertSale(sale, 1000, 1000 - admitted.size(), admitted.size());
        assertAuditPasses(sale);
    }

    @Test
    void withdrawingWhileBuyersRaceNeverLeavesRedisAndMySqlApart() throws Exception {
        String sale = unlimitedSale(40);
        List<Callable<Response>> calls = new ArrayList<>();
        List<String> users = users(40);
        for (int i = 0; i < users.size(); i++) {
            String user = users.get(i);
            Duration at = Duration.ofMillis(10L * i);
            calls.add(() -> {
                pause(at);
                return api.purchase(TestTokens.buyer(user), sale, "k");
            });
        }
        List<String> keys = List.of("w1", "w2", "w3", "w1", "w4", "w5");
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            Duration at = Duration.ofMillis(30L + 60L * i);
            calls.add(() -> {
                pause(at);
                return api.post(
                        "/api/sales/" + sale + "/withdraw", ADMIN, Map.of("units", 4), ApiClient.IDEMPOTENCY_KEY, key);
            });
        }

        List<Response> answers = values(Race.run(calls));

        answers.subList(40, 46).forEach(answer -> answer.assertStatus(200));
        List<Response> purchases = answers.subList(0, 40);
        List<String> winners = winners(purchases);
        winners.forEach(user -> awaitStatus(TestTokens.buyer(user), purchaseId(sale, user), "PENDING_PAYMENT"));
        JsonNode changes = api.get("/api/sales/" + sale, ADMIN).body().path("changes");
        assertThat(changes.findValuesAsText("key")).containsExactlyInAnyOrder("w1", "w2", "w3", "w4", "w5");
        int withdrawn =
                -changes.findValues("units").stream().mapToInt(JsonNode::asInt).sum();
        assertThat(outcomes(purchases))
                .containsOnly(Map.entry("202", (long) winners.size()), Map.entry("409 sold-out", 40L - winners.size()));
        assertThat(winners.size() + withdrawn).isEqualTo(40);
        assertSale(sale, 40 - withdrawn, 0, winners.size());
        assertThat(stores.heldCount(sale)).isEqualTo(winners.size());
        assertAuditPasses(sale);
    }

    /** What one purchase request of the close burst got, and when it was sent. */
    private record Attempt(String user, Instant sent, int status, String outcome) {}

    /** Fresh buyers, one request each, until {@code stop}. */
    private Response buyUntil(AtomicBoolean stop, String sale, Queue<Attempt> attempts) {
        Response last = null;
        while (!stop.get()) {
            String user = newUser();
            Instant sent = Instant.now();
            last = api.purchase(TestTokens.buyer(user), sale, "k");
            attempts.add(new Attempt(user, sent, last.status(), outcome(last)));
            pause(Duration.ofMillis(5));
        }
        return last;
    }

    /** One buyer tries every 20 ms until admitted, or until {@link #AFTERWARDS} after the restock answered. */
    private Response buyUntilAdmittedOrAfter(String sale, String user, AtomicReference<Instant> restocked) {
        Instant giveUp = Instant.now().plusSeconds(30);
        while (true) {
            Response answer = api.purchase(TestTokens.buyer(user), sale, "k-" + user);
            Instant changed = restocked.get();
            boolean over = changed != null && Instant.now().isAfter(changed.plus(AFTERWARDS));
            if (answer.status() == 202 || over || Instant.now().isAfter(giveUp)) {
                return answer;
            }
            pause(Duration.ofMillis(20));
        }
    }

    private String unlimitedSale(int units) {
        Map<String, Object> body = saleBody(units);
        Map<String, Object> off = Map.of("capacity", 0, "refillPerSecond", 1);
        body.put("rateLimits", Map.of("perUser", off, "perAddress", off));
        return createSale(body);
    }

    private void assertSale(String sale, int total, int available, int pending) {
        Response view = api.get("/api/sales/" + sale, ADMIN).assertStatus(200);
        assertThat(view.body().path("total").asInt())
                .as("total of %s", view.text())
                .isEqualTo(total);
        assertThat(view.body().path("available").asInt()).as("available").isEqualTo(available);
        assertThat(view.body().path("redisStock").asLong()).as("Redis stock").isEqualTo(available);
        assertThat(view.body().path("pendingPayment").asInt()).as("orders").isEqualTo(pending);
    }

    private void assertAuditPasses(String sale) {
        Response audit = api.audit(ADMIN, sale).assertStatus(200);
        assertThat(audit.field("result")).as(audit.text()).isEqualTo("PASS");
    }

    private static List<String> users(int count) {
        return IntStream.range(0, count).mapToObj(i -> newUser()).toList();
    }

    private static List<Response> values(List<Race.Outcome<Response>> outcomes) {
        assertThat(outcomes).extracting(Race.Outcome::failure).containsOnlyNulls();
        return new ArrayList<>(outcomes.stream().map(Race.Outcome::value).toList());
    }

    private static Map<String, Long> outcomes(List<Response> answers) {
        return answers.stream().collect(Collectors.groupingBy(SaleChangeRacesIT::outcome, Collectors.counting()));
    }

    private static List<String> winners(List<Response> answers) {
        return answers.stream()
                .filter(answer -> answer.status() == 202)
                .map(answer -> answer.field("userId"))
                .toList();
    }

    /** "202", or the status and the problem type's last segment, e.g. "409 sold-out". */
    private static String outcome(Response answer) {
        String type = answer.field("type");
        return type == null ? Integer.toString(answer.status()) : answer.status() + " " + type.replaceAll(".*/", "");
    }

    private static void pause(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
