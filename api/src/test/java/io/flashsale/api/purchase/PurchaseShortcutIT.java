package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.testkit.ApiClient.Response;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The shortcut answers a purchase ahead of Spring Security and MVC with the very answer the
 * controller gives, and leaves every other request to them. The controller's answer to compare
 * with comes from a request whose {@code Accept} names one media type only, which the shortcut
 * leaves to the chain's content negotiation.
 */
class PurchaseShortcutIT extends ApiIntegrationTest {

    private static final Map<String, String> TO_CONTROLLER_ADMITTED = Map.of("Accept", "application/json");
    private static final Map<String, String> TO_CONTROLLER_REFUSED = Map.of("Accept", "application/problem+json");

    @Autowired
    MeterRegistry meters;

    @Test
    void admitsAndAnswersARepeatLikeTheController() {
        String sale = openSale(2);
        String alice = newUser();
        String bob = newUser();
        double before = shortcutAnswers();

        Response controller = api.purchase(TestTokens.buyer(alice), sale, "key", TO_CONTROLLER_ADMITTED);
        assertThat(shortcutAnswers() - before).isZero();
        Response shortcut = api.purchase(TestTokens.buyer(bob), sale, "key", Map.of());
        assertThat(shortcutAnswers() - before).isEqualTo(1);

        shortcut.assertStatus(202);
        assertSameAnswer(shortcut, controller, alice, bob);
        Response repeatByController = api.purchase(TestTokens.buyer(alice), sale, "key", TO_CONTROLLER_ADMITTED);
        Response repeatByShortcut = api.purchase(TestTokens.buyer(bob), sale, "key", Map.of());
        repeatByShortcut.assertStatus(200);
        assertSameAnswer(repeatByShortcut, repeatByController, alice, bob);
        assertThat(shortcutAnswers() - before).isEqualTo(2);
        assertThat(stores.redisStock(sale)).isZero();
    }

    @Test
    void refusesASoldOutSaleLikeTheController() {
        String sale = openSale(1);
        api.purchase(TestTokens.buyer(newUser()), sale, "key").assertStatus(202);
        double before = shortcutAnswers();

        Response controller = api.purchase(TestTokens.buyer(newUser()), sale, "key", TO_CONTROLLER_REFUSED);
        Response shortcut = api.purchase(TestTokens.buyer(newUser()), sale, "key", Map.of());
        Response anyType = api.purchase(TestTokens.buyer(newUser()), sale, "key", Map.of("Accept", "*/*"));

        assertThat(shortcutAnswers() - before).isEqualTo(2);
        shortcut.assertProblem(409, "sold-out");
        assertSameAnswer(shortcut, controller, "", "");
        assertSameAnswer(anyType, controller, "", "");
    }

    @Test
    void leavesEveryOtherRequestToTheChainInItsOrder() {
        String sale = openSale(1);
        String holder = newUser();
        api.purchase(TestTokens.buyer(holder), sale, "key").assertStatus(202);
        String stranger = TestTokens.buyer(newUser());
        double before = shortcutAnswers();

        api.purchase(TestTokens.forged(newUser()), sale, "bad key!").assertProblem(401, "unauthorized");
        api.purchase(TestTokens.expired(newUser()), sale, "key").assertProblem(401, "unauthorized");
        api.purchase(TestTokens.buyer("bad subject!"), sale, "key").assertProblem(401, "unauthorized");
        api.purchase(null, sale, "key").assertProblem(401, "unauthorized");
        api.purchase(stranger, sale, null).assertProblem(400, "invalid-idempotency-key");
        api.purchase(stranger, sale, "bad key!").assertProblem(400, "invalid-idempotency-key");
        api.purchase(stranger, "no-such-sale!", "key").assertProblem(404, "sale-not-found");
        api.purchase(stranger, sale, "key", TO_CONTROLLER_REFUSED).assertProblem(409, "sold-out");
        assertThat(shortcutAnswers() - before).isZero();
        String path = "/api/sales/" + sale + "/purchases";
        api.send("POST", path, stranger, "Idempotency-Key", "k1", "Idempotency-Key", "k2")
                .assertProblem(400, "invalid-idempotency-key");
        // excludes every type: the chain's content negotiation decides, whatever it answers
        api.send("POST", path, stranger, "Idempotency-Key", "k1", "Accept", "*/*;q=0");
        assertThat(shortcutAnswers() - before).isZero();

        // admitted by the shortcut, answered by the controller: outcomes it does not write itself
        api.purchase(TestTokens.buyer(holder), sale, "another-key").assertProblem(409, "already-purchased");
        api.purchase(stranger, startsLater(saleBody(1)), "key").assertProblem(409, "sale-not-open");
        assertThat(shortcutAnswers() - before).isZero();
    }

    /** Same status, headers and body, once the first buyer's id reads as the second's. */
    private static void assertSameAnswer(Response actual, Response expected, String expectedUser, String actualUser) {
        assertThat(actual.status()).isEqualTo(expected.status());
        String expectedText =
                expectedUser.isEmpty() ? expected.text() : expected.text().replace(expectedUser, actualUser);
        assertThat(actual.text()).isEqualTo(expectedText);
        assertThat(headers(actual)).isEqualTo(headers(expected, expectedUser, actualUser));
    }

    /**
     * Every header by lower-case name, but the date and the body's framing (the controller's answer
     * is chunked, the shortcut's has a length), the first user's id read as the second's.
     */
    private static Map<String, List<String>> headers(Response response, String... replaced) {
        Map<String, List<String>> headers = new TreeMap<>();
        response.headers()
                .map()
                .forEach((name, values) -> headers.put(
                        name,
                        values.stream()
                                .map(value -> replaced.length == 0 || replaced[0].isEmpty()
                                        ? value
                                        : value.replace(replaced[0], replaced[1]))
                                .toList()));
        headers.keySet().removeAll(List.of("date", "content-length", "transfer-encoding"));
        return headers;
    }

    private double shortcutAnswers() {
        return meters.counter("flashsale.admissions.shortcut").count();
    }
}
