package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.testing.Race;
import io.flashsale.stores.testing.TestStores;
import io.flashsale.testkit.ApiClient.Response;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * Ids compare byte-exactly in every store: users and sales whose ids differ only in case are
 * strangers to each other, in MySQL as in Redis and Temporal.
 */
class CaseDistinctIdsIT extends ApiIntegrationTest {

    @Test
    void usersWhoseIdsDifferOnlyInCaseEachGetTheirOwnOrder() throws InterruptedException {
        String sale = openSale(4);
        String lower = "case" + TestStores.random(8);
        List<String> users = List.of(lower, lower.toUpperCase(Locale.ROOT), "C" + lower.substring(1));
        List<Callable<Response>> purchases = users.stream()
                .<Callable<Response>>map(user -> () -> api.purchase(TestTokens.buyer(user), sale, "key-1"))
                .toList();

        List<Race.Outcome<Response>> outcomes = Race.run(purchases);

        assertThat(outcomes).allSatisfy(o -> assertThat(o.value().status()).isEqualTo(202));
        List<Long> orderIds = users.stream()
                .map(user -> awaitStatus(TestTokens.buyer(user), purchaseId(sale, user), "PENDING_PAYMENT"))
                .map(pending -> pending.body().path("orderId").asLong())
                .toList();
        assertThat(orderIds).doesNotHaveDuplicates();

        api.cancel(TestTokens.buyer(users.get(1)), purchaseId(sale, users.get(1)))
                .assertStatus(200);
        Response paid = api.pay(PAYMENTS, purchaseId(sale, users.get(0)), "pay-" + lower)
                .assertStatus(200);

        assertThat(paid.field("status")).isEqualTo("PAID");
        assertThat(awaitStatus(TestTokens.buyer(users.get(2)), purchaseId(sale, users.get(2)), "PENDING_PAYMENT")
                        .body()
                        .path("orderId")
                        .asLong())
                .isEqualTo(orderIds.get(2));
        assertThat(stores.orders(sale))
                .containsExactlyInAnyOrder(
                        purchaseId(sale, users.get(0)) + " PAID pay-" + lower,
                        purchaseId(sale, users.get(1)) + " CANCELLED -",
                        purchaseId(sale, users.get(2)) + " PENDING_PAYMENT -");
        assertThat(stores.available(sale)).isEqualTo(2);
        assertThat(stores.redisStock(sale)).isEqualTo(2);
        assertAuditPasses(sale);
    }

    @Test
    void salesWhoseIdsDifferOnlyInCaseKeepTheirOwnStockAndOrders() throws InterruptedException {
        Map<String, Object> lowerBody = saleBody(1);
        Map<String, Object> upperBody = saleBody(1);
        upperBody.put("id", lowerBody.get("id").toString().toUpperCase(Locale.ROOT));
        String lower = createSale(lowerBody);
        String upper = createSale(upperBody);
        String user = newUser();
        String token = TestTokens.buyer(user);

        List<Race.Outcome<Response>> outcomes =
                Race.run(List.of(() -> api.purchase(token, lower, "key-1"), () -> api.purchase(token, upper, "key-1")));

        assertThat(outcomes).allSatisfy(o -> assertThat(o.value().status()).isEqualTo(202));
        for (String sale : List.of(lower, upper)) {
            awaitStatus(token, purchaseId(sale, user), "PENDING_PAYMENT");
            assertThat(stores.orders(sale)).containsExactly(purchaseId(sale, user) + " PENDING_PAYMENT -");
            assertThat(stores.available(sale)).isZero();
            assertThat(stores.redisStock(sale)).isZero();
            assertAuditPasses(sale);
        }
    }

    private void assertAuditPasses(String sale) {
        Response audit = api.get("/api/sales/" + sale + "/audit", ADMIN).assertStatus(200);
        assertThat(audit.field("result"))
                .as("audit of %s: %s", sale, audit.text())
                .isEqualTo("PASS");
    }
}
