package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.testkit.ApiClient.Response;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The sold-out mark over HTTP. The api tests run with a mark ttl of ten minutes (see {@link
 * ApiIntegrationTest}), so a unit sold again within seconds proves that the release's announcement
 * dropped the mark, not that the mark ran out.
 */
class SoldOutMarkIT extends ApiIntegrationTest {

    /** Far below the tests' mark ttl: only the announcement can make a returned unit sellable this soon. */
    private static final Duration SOLD_AGAIN_WITHIN = Duration.ofSeconds(15);

    @Autowired
    MeterRegistry meters;

    @Test
    void answersSoldOutFromMemoryButNeverToTheSalesOwnBuyers() {
        String sale = openSale(2);
        String alice = newUser();
        String bob = newUser();
        Response admitted = api.purchase(TestTokens.buyer(alice), sale, "key-a").assertStatus(202);
        api.purchase(TestTokens.buyer(bob), sale, "key-b").assertStatus(202);
        double before = fromMemory();

        for (int i = 0; i < 20; i++) {
            api.purchase(TestTokens.buyer(newUser()), sale, "key").assertProblem(409, "sold-out");
        }

        // the first refusal came from Redis and set the mark; the other 19 never reached Redis
        assertThat(fromMemory() - before).isEqualTo(19);
        Response again = api.purchase(TestTokens.buyer(alice), sale, "key-a");
        assertThat(again.status()).as(again.text()).isIn(200, 202);
        assertThat(again.field("purchaseId")).isEqualTo(admitted.field("purchaseId"));
        api.purchase(TestTokens.buyer(bob), sale, "another-key").assertProblem(409, "already-purchased");
        assertThat(fromMemory() - before).isEqualTo(19);
        assertThat(stores.redisStock(sale)).isZero();
    }

    @Test
    void aCancelledUnitIsSoldAgainAtOnceToExactlyOneBuyer() {
        String sale = openSale(1);
        String first = newUser();
        String firstToken = TestTokens.buyer(first);
        api.purchase(firstToken, sale, "key").assertStatus(202);
        awaitStatus(firstToken, purchaseId(sale, first), "PENDING_PAYMENT");
        api.purchase(TestTokens.buyer(newUser()), sale, "key").assertProblem(409, "sold-out");
        double before = fromMemory();
        api.purchase(TestTokens.buyer(newUser()), sale, "key").assertProblem(409, "sold-out");
        assertThat(fromMemory() - before).as("the sale is marked").isEqualTo(1);

        api.cancel(firstToken, purchaseId(sale, first)).assertStatus(200);

        List<Integer> answers = new ArrayList<>();
        Instant deadline = Instant.now().plus(SOLD_AGAIN_WITHIN);
        while (!answers.contains(202) && Instant.now().isBefore(deadline)) {
            answers.add(api.purchase(TestTokens.buyer(newUser()), sale, "key").status());
        }
        assertThat(answers).as("answers after the cancel").endsWith(202);
        assertThat(answers.subList(0, answers.size() - 1)).allMatch(status -> status == 409);
        for (int i = 0; i < 5; i++) {
            api.purchase(TestTokens.buyer(newUser()), sale, "key").assertProblem(409, "sold-out");
        }
        assertThat(stores.redisStock(sale)).isZero();
        assertThat(stores.heldCount(sale)).isEqualTo(1);
    }

    private double fromMemory() {
        return meters.counter("flashsale.admissions.sold.out.from.memory").count();
    }
}
