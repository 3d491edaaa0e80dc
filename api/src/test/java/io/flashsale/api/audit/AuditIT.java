package io.flashsale.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.sale.SaleArchive;
import io.flashsale.testkit.ApiClient.Response;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The audit over HTTP against the running system: what it must see that counts alone do not show. */
class AuditIT extends ApiIntegrationTest {

    @Autowired
    SaleArchive archive;

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

    @Test
    void answersForASaleArchivedInRedisFromMySqlAloneAndRefusesToRepairIt() {
        String sale = openSale(2);
        String user = newUser();
        String purchaseId = purchaseId(sale, user);
        api.purchase(TestTokens.buyer(user), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(user), purchaseId, "PENDING_PAYMENT");
        api.pay(PAYMENTS, purchaseId, "pay-" + purchaseId).assertStatus(200);
        stores.endSale(sale);
        assertThat(archive.archiveIfFinal(sale, Duration.ofMinutes(5))).isEqualTo(SaleArchive.Outcome.ARCHIVED);

        Response view = api.sale(ADMIN, sale).assertStatus(200);
        Response audit = audit(sale);
        Response repair = api.repair(ADMIN, sale);
        Response lateBuyer = api.purchase(TestTokens.buyer(newUser()), sale, "key-late");

        assertThat(view.field("redisArchivedAt")).isNotNull();
        assertThat(view.field("redisStock")).isNull();
        assertThat(view.body().path("paid").asInt()).isEqualTo(1);
        assertThat(view.body().path("available").asInt()).isEqualTo(1);
        assertThat(audit.field("result")).isEqualTo("PASS");
        assertThat(audit.field("redisArchivedAt")).isEqualTo(view.field("redisArchivedAt"));
        assertThat(audit.body().path("paid").asInt()).isEqualTo(1);
        assertThat(audit.body().path("violations")).isEmpty();
        repair.assertProblem(409, "sale-archived");
        lateBuyer.assertProblem(409, "sale-not-open");
        assertThat(stores.redisStock(sale)).isNull();
        assertThat(stores.holds(sale)).isEmpty();
    }

    @Test
    void countsChangesHalfDoneAsInFlightAndTheRepairSettlesThemSoThatRepeatsApplyOnce() {
        String sale = openSale(5);
        api.restock(ADMIN, sale, "r1", 3).assertStatus(200);
        stores.undoRestockInRedis(sale, "r1", 3);
        assertThat(stores.withdrawInRedisOnly(sale, "w1", 2)).isEqualTo(2);
        assertThat(audit(sale).field("result"))
                .as("both changes are in flight, not drift")
                .isEqualTo("PASS");

        Response repaired = api.repair(ADMIN, sale);

        repaired.assertStatus(200);
        assertThat(repaired.body().path("stockAfter").asInt()).isEqualTo(8);
        assertThat(stores.redisChanges(sale)).containsExactly("r1");
        api.restock(ADMIN, sale, "r1", 3).assertStatus(200);
        Response withdrawn = api.withdraw(ADMIN, sale, "w1", 2).assertStatus(200);
        assertThat(withdrawn.body().path("total").asInt()).isEqualTo(6);
        assertThat(withdrawn.body().path("available").asInt()).isEqualTo(6);
        assertThat(withdrawn.body().path("redisStock").asLong()).isEqualTo(6);
        assertThat(audit(sale).field("result")).isEqualTo("PASS");
    }

    private Response audit(String sale) {
        return api.get("/api/sales/" + sale + "/audit", ADMIN).assertStatus(200);
    }
}
