package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.testkit.ApiClient.Response;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The sold-out shortcut answers a marked sale's refusals ahead of Spring Security and MVC, with the
 * very answer the controller gives, and leaves every other request to them. The controller's answer
 * to compare with is the refusal that set the mark: Redis gave it, so it went the whole way.
 */
class SoldOutShortcutIT extends ApiIntegrationTest {

    @Autowired
    MeterRegistry meters;

    private String sale;
    private String buyer;

    /** A sale of one unit, sold, and marked by one refusal through the controller. */
    @BeforeEach
    void markedSale() {
        sale = openSale(1);
        buyer = newUser();
        api.purchase(TestTokens.buyer(buyer), sale, "key").assertStatus(202);
    }

    @Test
    void answersARefusalOfTheMarkLikeTheController() {
        double before = shortcutAnswers();
        Response controller = api.purchase(TestTokens.buyer(newUser()), sale, "key");
        assertThat(shortcutAnswers() - before)
                .as("the first refusal comes from Redis")
                .isZero();

        Response shortcut = api.purchase(TestTokens.buyer(newUser()), sale, "key");

        assertThat(shortcutAnswers() - before).isEqualTo(1);
        shortcut.assertProblem(409, "sold-out");
        assertThat(shortcut.text()).isEqualTo(controller.text());
        assertThat(headers(shortcut)).isEqualTo(headers(controller));
    }

    @Test
    void leavesEveryOtherRequestToTheChainInItsOrder() {
        String stranger = TestTokens.buyer(newUser());
        api.purchase(TestTokens.buyer(newUser()), sale, "key").assertProblem(409, "sold-out");
        double before = shortcutAnswers();

        api.purchase(TestTokens.forged(newUser()), sale, "bad key!").assertProblem(401, "unauthorized");
        api.purchase(TestTokens.expired(newUser()), sale, "key").assertProblem(401, "unauthorized");
        api.purchase(TestTokens.buyer("bad subject!"), sale, "key").assertProblem(401, "unauthorized");
        api.purchase(null, sale, "key").assertProblem(401, "unauthorized");
        api.purchase(stranger, sale, null).assertProblem(400, "invalid-idempotency-key");
        api.purchase(stranger, sale, "bad key!").assertProblem(400, "invalid-idempotency-key");
        api.purchase(stranger, "no-such-sale!", "key").assertProblem(404, "sale-not-found");
        api.purchase(stranger, sale, "key", Map.of("Accept", "application/json"))
                .assertProblem(409, "sold-out");
        Response repeat = api.purchase(TestTokens.buyer(buyer), sale, "key");
        assertThat(repeat.status()).as(repeat.text()).isIn(200, 202);
        api.purchase(TestTokens.buyer(buyer), sale, "another-key").assertProblem(409, "already-purchased");

        assertThat(shortcutAnswers() - before).isZero();
        api.purchase(stranger, sale, "key", Map.of("Accept", "application/problem+json, text/plain"))
                .assertProblem(409, "sold-out");
        assertThat(shortcutAnswers() - before).isEqualTo(1);
    }

    /**
     * Every header by lower-case name, but the date and the body's framing: the controller's answer
     * is chunked, the shortcut's has a length.
     */
    private static Map<String, List<String>> headers(Response response) {
        Map<String, List<String>> headers = new TreeMap<>(response.headers().map());
        headers.keySet().removeAll(List.of("date", "content-length", "transfer-encoding"));
        return headers;
    }

    private double shortcutAnswers() {
        return meters.counter("flashsale.admissions.sold.out.shortcut").count();
    }
}
