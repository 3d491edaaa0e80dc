package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiClient.Response;
import io.flashsale.api.testing.ApiIntegrationTest;
import org.junit.jupiter.api.Test;

/** Pay and cancel over HTTP with the worker running: the workflow decides, MySQL and Redis follow. */
class PaymentAndCancelIT extends ApiIntegrationTest {

    @Test
    void paysOnceCancelsOnceAndReturnsExactlyOneUnit() {
        String sale = openSale(3);
        String payer = newUser();
        String canceller = newUser();
        String paid = purchaseId(sale, payer);
        String cancelled = purchaseId(sale, canceller);
        String payerToken = TestTokens.buyer(payer);
        String cancellerToken = TestTokens.buyer(canceller);
        api.purchase(payerToken, sale, "key-1").assertStatus(202);
        api.purchase(cancellerToken, sale, "key-1").assertStatus(202);
        awaitStatus(payerToken, paid, "PENDING_PAYMENT");
        Response pending = awaitStatus(cancellerToken, cancelled, "PENDING_PAYMENT");
        assertThat(pending.field("payDeadline")).isNotNull();
        assertThat(pending.body().path("orderId").asLong()).isPositive();
        assertThat(stores.available(sale)).isEqualTo(1);
        assertThat(stores.redisStock(sale)).isEqualTo(1);

        Response payment = api.pay(PAYMENTS, paid, "pay-" + payer).assertStatus(200);
        assertThat(payment.field("status")).isEqualTo("PAID");
        Response repeat = api.pay(PAYMENTS, paid, "pay-" + payer).assertStatus(200);
        assertThat(repeat.field("status")).isEqualTo("PAID");
        api.pay(PAYMENTS, paid, "pay-other").assertProblem(409, "payment-rejected");
        assertThat(api.cancel(payerToken, paid)
                        .assertProblem(409, "cancel-rejected")
                        .field("purchaseStatus"))
                .isEqualTo("PAID");
        assertThat(awaitStatus(payerToken, paid, "PAID").field("paymentId")).isEqualTo("pay-" + payer);

        Response cancel = api.cancel(cancellerToken, cancelled).assertStatus(200);
        assertThat(cancel.field("status")).isEqualTo("CANCELLED");
        Response cancelAgain = api.cancel(cancellerToken, cancelled).assertStatus(200);
        assertThat(cancelAgain.field("status")).isEqualTo("CANCELLED");
        Response latePayment = api.pay(PAYMENTS, cancelled, "pay-" + canceller).assertProblem(409, "payment-rejected");
        assertThat(latePayment.field("purchaseStatus")).isEqualTo("CANCELLED");

        assertThat(stores.orders(sale))
                .containsExactlyInAnyOrder(paid + " PAID pay-" + payer, cancelled + " CANCELLED -");
        assertThat(stores.available(sale)).as("MySQL: one unit back").isEqualTo(2);
        assertThat(stores.redisStock(sale)).as("Redis: one unit back").isEqualTo(2);
        assertThat(stores.holds(sale)).containsEntry(paid, "HELD").containsEntry(cancelled, "RELEASED");
        Response view = api.sale(ADMIN, sale).assertStatus(200);
        assertThat(view.body().path("paid").asInt()).isEqualTo(1);
        assertThat(view.body().path("pendingPayment").asInt()).isZero();
        assertThat(view.body().path("cancelled").asInt()).isEqualTo(1);
        assertThat(view.body().path("expired").asInt()).isZero();
        assertThat(view.body().path("available").asInt()).isEqualTo(2);
        assertThat(view.body().path("redisStock").asLong()).isEqualTo(2);
    }

    @Test
    void refusesPaymentIdUsedByAnotherOrder() {
        String sale = openSale(2);
        String first = newUser();
        String second = newUser();
        api.purchase(TestTokens.buyer(first), sale, "key-1").assertStatus(202);
        api.purchase(TestTokens.buyer(second), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(first), purchaseId(sale, first), "PENDING_PAYMENT");
        awaitStatus(TestTokens.buyer(second), purchaseId(sale, second), "PENDING_PAYMENT");
        api.pay(PAYMENTS, purchaseId(sale, first), "pay-shared").assertStatus(200);

        Response refused =
                api.pay(PAYMENTS, purchaseId(sale, second), "pay-shared").assertProblem(409, "payment-rejected");

        assertThat(refused.field("refundNeeded"))
                .as("the purchase can still be paid")
                .isNull();

        assertThat(api.purchaseStatus(TestTokens.buyer(second), purchaseId(sale, second))
                        .field("status"))
                .isEqualTo("PENDING_PAYMENT");
        assertThat(stores.orders(sale))
                .containsExactlyInAnyOrder(
                        purchaseId(sale, first) + " PAID pay-shared", purchaseId(sale, second) + " PENDING_PAYMENT -");
    }

    @Test
    void refusesMalformedPaymentBodyWith400() {
        String sale = openSale(1);
        String user = newUser();
        api.purchase(TestTokens.buyer(user), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(user), purchaseId(sale, user), "PENDING_PAYMENT");

        api.post("/api/purchases/" + purchaseId(sale, user) + "/payment", PAYMENTS, "{}")
                .assertProblem(400, "invalid-request");
        api.pay(PAYMENTS, purchaseId(sale, user), "pay with spaces").assertProblem(400, "invalid-request");

        assertThat(api.purchaseStatus(TestTokens.buyer(user), purchaseId(sale, user))
                        .field("status"))
                .isEqualTo("PENDING_PAYMENT");
    }
}
