package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.payment.PaymentRefunds;
import io.flashsale.stores.testing.StoreSnapshot;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.testkit.ApiClient.Money;
import io.flashsale.testkit.ApiClient.Response;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Payments come from the payment service (scope payments) or the provider's signed webhook, for the
 * sale's price. Every refusal leaves MySQL, Redis and the workflow as they were.
 */
class PaymentServiceIT extends ApiIntegrationTest {

    @Autowired
    PaymentRefunds refunds;

    private String sale;
    private String buyer;
    private String purchaseId;

    @BeforeEach
    void aPurchaseAwaitingPayment() {
        sale = openSale(2);
        buyer = newUser();
        purchaseId = purchaseId(sale, buyer);
        api.purchase(TestTokens.buyer(buyer), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(buyer), purchaseId, "PENDING_PAYMENT");
    }

    @Test
    void thePaymentServiceConfirmsAndTheBuyerSeesPaidWithThePrice() {
        Response confirmed = api.pay(PAYMENTS, purchaseId, "pay-" + purchaseId).assertStatus(200);

        Response seen = api.status(TestTokens.buyer(buyer), purchaseId).assertStatus(200);
        assertThat(confirmed.field("status")).isEqualTo("PAID");
        assertThat(seen.field("status")).isEqualTo("PAID");
        assertThat(seen.body().path("price").path("amountMinor").asLong()).isEqualTo(TestSales.PRICE.amountMinor());
        assertThat(seen.body().path("price").path("currency").asText()).isEqualTo(TestSales.PRICE.currency());
        assertThat(stores.orders(sale)).containsExactly(purchaseId + " PAID pay-" + purchaseId);
    }

    @Test
    void refusesABuyerConfirmingTheirOwnPaymentAndChangesNothing() {
        StoreSnapshot before = stores.snapshot(sale);

        api.pay(TestTokens.buyer(buyer), purchaseId, "pay-own").assertProblem(403, "forbidden");

        assertUnchanged(before);
    }

    @Test
    void refusesAnAmountOtherThanThePriceAndChangesNothing() {
        StoreSnapshot before = stores.snapshot(sale);

        api.pay(PAYMENTS, purchaseId, "pay-cheap", new Money(TestSales.PRICE.amountMinor() - 1, "EUR"))
                .assertProblem(422, "payment-amount-mismatch");
        api.pay(PAYMENTS, purchaseId, "pay-usd", new Money(TestSales.PRICE.amountMinor(), "USD"))
                .assertProblem(422, "payment-amount-mismatch");

        assertUnchanged(before);
        assertThat(refunds.ofSale(sale)).isEmpty();
    }

    @Test
    void acceptsASignedWebhook() {
        String body = webhookBody("pay-hook");
        String now = Long.toString(Instant.now().getEpochSecond());

        Response confirmed = api.post(
                        "/api/payments/webhook",
                        null,
                        body,
                        "Webhook-Timestamp",
                        now,
                        "Webhook-Signature",
                        sign(WEBHOOK_SECRET, now, body))
                .assertStatus(200);

        assertThat(confirmed.field("status")).isEqualTo("PAID");
        assertThat(stores.orders(sale)).containsExactly(purchaseId + " PAID pay-hook");
    }

    @Test
    void refusesAForgedStaleOrTamperedWebhookAndChangesNothing() {
        StoreSnapshot before = stores.snapshot(sale);
        String body = webhookBody("pay-forged");
        String now = Long.toString(Instant.now().getEpochSecond());
        String stale = Long.toString(Instant.now().minusSeconds(301).getEpochSecond());

        api.post(
                        "/api/payments/webhook",
                        null,
                        body,
                        "Webhook-Timestamp",
                        now,
                        "Webhook-Signature",
                        sign("not-the-webhook-secret-at-all", now, body))
                .assertProblem(401, "webhook-signature-invalid");
        api.post(
                        "/api/payments/webhook",
                        null,
                        body.replace("pay-forged", "pay-other"),
                        "Webhook-Timestamp",
                        now,
                        "Webhook-Signature",
                        sign(WEBHOOK_SECRET, now, body))
                .assertProblem(401, "webhook-signature-invalid");
        api.post(
                        "/api/payments/webhook",
                        null,
                        body,
                        "Webhook-Timestamp",
                        stale,
                        "Webhook-Signature",
                        sign(WEBHOOK_SECRET, stale, body))
                .assertProblem(401, "webhook-stale");
        api.post("/api/payments/webhook", null, body, "Webhook-Timestamp", now, "Webhook-Signature", "")
                .assertProblem(401, "webhook-signature-invalid");

        assertUnchanged(before);
    }

    @Test
    void refusesAReplayedWebhookAndChangesNothingMore() {
        String body = webhookBody("pay-once");
        String now = Long.toString(Instant.now().getEpochSecond());
        String signature = sign(WEBHOOK_SECRET, now, body);
        api.post("/api/payments/webhook", null, body, "Webhook-Timestamp", now, "Webhook-Signature", signature)
                .assertStatus(200);
        StoreSnapshot before = stores.snapshot(sale);

        api.post("/api/payments/webhook", null, body, "Webhook-Timestamp", now, "Webhook-Signature", signature)
                .assertProblem(409, "webhook-replayed");

        assertThat(stores.snapshot(sale)).isEqualTo(before);
        assertThat(stores.orders(sale)).containsExactly(purchaseId + " PAID pay-once");
    }

    @Test
    void recordsARefundOnceForMoneyThatArrivesAfterTheBuyerCancelled() {
        api.cancel(TestTokens.buyer(buyer), purchaseId).assertStatus(200);
        StoreSnapshot before = stores.snapshot(sale);

        Response late = api.pay(PAYMENTS, purchaseId, "pay-late").assertProblem(409, "payment-rejected");
        api.pay(PAYMENTS, purchaseId, "pay-late").assertProblem(409, "payment-rejected");

        assertThat(late.field("purchaseStatus")).isEqualTo("CANCELLED");
        assertThat(late.body().path("refundNeeded").asBoolean()).isTrue();
        assertThat(refunds.ofSale(sale))
                .extracting(PaymentRefunds.RefundNeeded::paymentId, PaymentRefunds.RefundNeeded::purchaseStatus)
                .containsExactly(tuple("pay-late", PurchaseStatus.CANCELLED));
        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    /** A payment id is one payment: offered for a second order it is refused, saying why. */
    @Test
    void refusesAPaymentIdAnotherOrderWasPaidWithSayingSo() {
        String other = newUser();
        String otherPurchase = purchaseId(sale, other);
        api.purchase(TestTokens.buyer(other), sale, "key-1").assertStatus(202);
        awaitStatus(TestTokens.buyer(other), otherPurchase, "PENDING_PAYMENT");
        api.pay(PAYMENTS, purchaseId, "pay-once-" + sale).assertStatus(200);
        StoreSnapshot before = stores.snapshot(sale);

        Response reused = api.pay(PAYMENTS, otherPurchase, "pay-once-" + sale).assertProblem(409, "payment-rejected");

        assertThat(reused.field("purchaseStatus")).isEqualTo("PENDING_PAYMENT");
        assertThat(reused.field("detail"))
                .isEqualTo("purchase " + otherPurchase + " is PENDING_PAYMENT: payment pay-once-" + sale
                        + " is used by another order");
        assertThat(stores.snapshot(sale)).isEqualTo(before);
    }

    @Test
    void refusesAPaymentForAnUnknownPurchase() {
        api.pay(PAYMENTS, purchaseId(sale, "nobody"), "pay-nobody").assertProblem(404, "purchase-not-found");
        api.pay(PAYMENTS, "purchase-tnosuchsale-nobody", "pay-nobody").assertProblem(404, "purchase-not-found");

        assertThat(refunds.ofSale(sale)).isEmpty();
    }

    private void assertUnchanged(StoreSnapshot before) {
        assertThat(stores.snapshot(sale)).isEqualTo(before);
        assertThat(api.status(TestTokens.buyer(buyer), purchaseId).field("status"))
                .isEqualTo("PENDING_PAYMENT");
    }

    private String webhookBody(String paymentId) {
        return json(Map.of(
                "purchaseId",
                purchaseId,
                "paymentId",
                paymentId,
                "amount",
                Map.of("amountMinor", TestSales.PRICE.amountMinor(), "currency", TestSales.PRICE.currency())));
    }

    private static String json(Map<String, Object> body) {
        try {
            return new ObjectMapper().writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** As the provider signs: {@code v1=} hex HMAC-SHA256 of {@code timestamp.body}. */
    static String sign(String secret, String timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] digest = mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1=" + HexFormat.of().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
