package io.flashsale.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.testing.StoreSnapshot;
import io.flashsale.testkit.ApiClient.Response;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The attacker's requests: someone else's purchase, and tokens the api must not believe. */
class PurchaseSecurityIT extends ApiIntegrationTest {

    @Test
    void hidesSomeoneElsesPurchaseBehind404AndChangesNothing() {
        String sale = openSale(2);
        String owner = newUser();
        String purchaseId = purchaseId(sale, owner);
        api.purchase(TestTokens.buyer(owner), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(owner), purchaseId, "PENDING_PAYMENT");
        StoreSnapshot before = stores.snapshot(sale);
        String mallory = TestTokens.buyer("mallory");

        api.status(mallory, purchaseId).assertProblem(404, "purchase-not-found");
        api.pay(mallory, purchaseId, "pay-mallory").assertProblem(403, "forbidden");
        api.cancel(mallory, purchaseId).assertProblem(404, "purchase-not-found");
        api.cancel(TestTokens.admin(), purchaseId).assertProblem(404, "purchase-not-found");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
        assertThat(api.status(TestTokens.buyer(owner), purchaseId).field("status"))
                .isEqualTo("PENDING_PAYMENT");
    }

    @Test
    void answersMissingAndMalformedPurchaseIdsWith404() {
        String token = TestTokens.buyer("mallory");

        api.status(token, "purchase-tnosuchsale-mallory").assertProblem(404, "purchase-not-found");
        api.status(token, "purchase-a").assertProblem(404, "purchase-not-found");
        api.status(token, "order-x-mallory").assertProblem(404, "purchase-not-found");
        api.pay(PAYMENTS, "purchase-tnosuchsale-mallory", "pay-1").assertProblem(404, "purchase-not-found");
        api.cancel(token, "purchase-tnosuchsale-mallory").assertProblem(404, "purchase-not-found");
    }

    @Test
    void refusesForgedUnsignedExpiredAndNeverExpiringTokensWith401AndWritesNothing() {
        String sale = openSale(2);
        StoreSnapshot before = stores.snapshot(sale);

        for (String token : new String[] {
            TestTokens.forged("mallory"),
            TestTokens.unsigned("mallory"),
            TestTokens.expired("mallory"),
            TestTokens.withoutExpiry("mallory"),
            TestTokens.signed(TestTokens.DEV_SECRET, "a|b", null, Instant.now().plusSeconds(600)),
            TestTokens.signed(TestTokens.DEV_SECRET, null, null, Instant.now().plusSeconds(600)),
            "not-a-jwt"
        }) {
            Response refused = api.purchase(token, sale, "key-1").assertProblem(401, "unauthorized");
            assertThat(refused.text()).doesNotContain("Exception");
        }
        api.purchase(null, sale, "key-1").assertProblem(401, "unauthorized");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    @Test
    void refusesForgedUnsignedAndExpiredAdminTokensForSaleAdminAndWritesNothing() {
        var body = saleBody(3);
        String id = (String) body.get("id");
        StoreSnapshot before = stores.snapshot(id);

        api.post("/api/sales", TestTokens.forged("admin"), body).assertProblem(401, "unauthorized");
        api.post("/api/sales", TestTokens.unsigned("admin"), body).assertProblem(401, "unauthorized");
        api.post("/api/sales", TestTokens.expired("admin"), body).assertProblem(401, "unauthorized");

        assertThat(stores.snapshot(id)).isEqualTo(before);
    }
}
