package io.flashsale.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiClient.Response;
import io.flashsale.api.testing.ApiIntegrationTest;
import org.junit.jupiter.api.Test;

/** The audit over HTTP against the running system: what it must see that counts alone do not show. */
class AuditIT extends ApiIntegrationTest {

    @Test
    void reportsAPurchaseAwaitingPaymentWhoseOrderWasEndedBehindItsBack() {
        String sale = openSale(2);
        String user = newUser();
        String purchaseId = purchaseId(sale, user);
        api.purchase(TestTokens.buyer(user), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(user), purchaseId, "PENDING_PAYMENT");
        assertThat(audit(sale).field("result")).isEqualTo("PASS");

        stores.cancelOrderBehindItsWorkflow(sale, purchaseId);
        Response audit = audit(sale);

        assertThat(audit.field("result")).isEqualTo("FAIL");
        assertThat(audit.body().path("violations").findValuesAsText("detail"))
                .containsExactly("workflows awaiting payment without a PENDING_PAYMENT order of their own: 1 ["
                        + purchaseId + "]");
    }

    private Response audit(String sale) {
        return api.get("/api/sales/" + sale + "/audit", ADMIN).assertStatus(200);
    }
}
