package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.api.testing.HeldOrders;
import io.flashsale.stores.testing.Hold;
import io.flashsale.testkit.ApiClient.Response;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Pay and cancel over HTTP with the worker running: the workflow decides, MySQL and Redis follow.
 * Refusals are sent both to running workflows (a step held, so the workflow's validators answer)
 * and to finished ones (the api answers from the purchase's state).
 */
class PaymentAndCancelIT extends ApiIntegrationTest {

    @Autowired
    HeldOrders held;

    /**
     * Repeats answer 200; the refusals here reach purchases whose workflow has finished (paid,
     * cancelled), which the api answers from the purchase's state.
     */
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
        Response view = api.get("/api/sales/" + sale, ADMIN).assertStatus(200);
        assertThat(view.body().path("paid").asInt()).isEqualTo(1);
        assertThat(view.body().path("pendingPayment").asInt()).isZero();
        assertThat(view.body().path("cancelled").asInt()).isEqualTo(1);
        assertThat(view.body().path("expired").asInt()).isZero();
        assertThat(view.body().path("available").asInt()).isEqualTo(2);
        assertThat(view.body().path("redisStock").asLong()).isEqualTo(2);
    }

    /**
     * While a payment is being recorded (its {@code markPaid} held), the running workflow's
     * validators refuse another payment id and a cancel; the first payment then completes.
     */
    @Test
    void refusesAnotherPaymentIdAndACancelWhileAPaymentIsRecorded() throws Exception {
        String sale = openSale(1);
        String user = newUser();
        String token = TestTokens.buyer(user);
        String purchase = purchaseId(sale, user);
        api.purchase(token, sale, "key-1").assertStatus(202);
        awaitStatus(token, purchase, "PENDING_PAYMENT");
        Hold recording = held.payment(purchase);
        CompletableFuture<Response> payment = CompletableFuture.supplyAsync(() -> api.pay(PAYMENTS, purchase, "pay-1"));
        recording.arrived();

        Response otherPayment = api.pay(PAYMENTS, purchase, "pay-2").assertProblem(409, "payment-rejected");
        Response cancel = api.cancel(token, purchase).assertProblem(409, "cancel-rejected");

        assertThat(otherPayment.field("purchaseStatus")).isEqualTo("PENDING_PAYMENT");
        assertThat(cancel.field("purchaseStatus")).isEqualTo("PENDING_PAYMENT");
        recording.open();
        assertThat(payment.get(30, TimeUnit.SECONDS).status()).isIn(200, 202);
        assertThat(awaitStatus(token, purchase, "PAID").field("paymentId")).isEqualTo("pay-1");
        assertThat(stores.orders(sale)).containsExactly(purchase + " PAID pay-1");
        assertThat(stores.available(sale)).isZero();
    }

    /** While a cancel gives the unit back (its {@code cancelOrder} held), the running workflow refuses a payment. */
    @Test
    void refusesAPaymentWhileACancelGivesTheUnitBack() throws Exception {
        String sale = openSale(1);
        String user = newUser();
        String token = TestTokens.buyer(user);
        String purchase = purchaseId(sale, user);
        api.purchase(token, sale, "key-1").assertStatus(202);
        awaitStatus(token, purchase, "PENDING_PAYMENT");
        Hold givingBack = held.cancel(purchase);
        CompletableFuture<Response> cancel = CompletableFuture.supplyAsync(() -> api.cancel(token, purchase));
        givingBack.arrived();

        Response payment = api.pay(PAYMENTS, purchase, "pay-1").assertProblem(409, "payment-rejected");

        assertThat(payment.field("purchaseStatus")).isEqualTo("PENDING_PAYMENT");
        givingBack.open();
        assertThat(cancel.get(30, TimeUnit.SECONDS).status()).isIn(200, 202);
        awaitStatus(token, purchase, "CANCELLED");
        assertThat(stores.orders(sale)).containsExactly(purchase + " CANCELLED -");
        assertThat(stores.available(sale)).isEqualTo(1);
        assertThat(stores.redisStock(sale)).isEqualTo(1);
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

        assertThat(api.status(TestTokens.buyer(second), purchaseId(sale, second))
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

        assertThat(api.status(TestTokens.buyer(user), purchaseId(sale, user)).field("status"))
                .isEqualTo("PENDING_PAYMENT");
    }
}
