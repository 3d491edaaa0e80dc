package io.flashsale.api.purchase;

import static io.flashsale.api.problem.ProblemAssertions.isProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verifyNoInteractions;

import io.flashsale.api.TestTokens;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.security.WebSliceSecurity;
import io.flashsale.api.security.WebhookSignatures;
import io.flashsale.stores.sale.Price;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * The payment service's HTTP contract: a confirmation with a {@code payments} token or as the
 * provider's signed webhook, its validation, and the answers the confirmation gives.
 */
@WebMvcTest(PaymentController.class)
@Import(WebSliceSecurity.class)
@ActiveProfiles("dev")
class PaymentControllerTest {

    private static final PurchaseId ANNS = PurchaseId.of("s1", "ann");
    private static final Price PRICE = new Price(1999, "EUR");
    private static final String PAYMENT =
            """
            {"paymentId": "pay-1", "amount": {"amountMinor": 1999, "currency": "EUR"}}""";
    private static final String WEBHOOK =
            """
            {"purchaseId": "purchase-s1-ann", "paymentId": "pay-1",
             "amount": {"amountMinor": 1999, "currency": "EUR"}}""";

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    PaymentConfirmation confirmation;

    @MockitoBean
    WebhookSignatures signatures;

    @Test
    void confirmsAPaymentOfThePaymentService() {
        given(confirmation.confirm(ANNS, "pay-1", PRICE)).willReturn(answer(ResponseEntity.ok(paid())));

        assertThat(confirm("purchase-s1-ann", PAYMENT, TestTokens.payments()))
                .hasStatus(HttpStatus.OK)
                .bodyJson()
                .extractingPath("$.status")
                .isEqualTo("PAID");
    }

    @Test
    void answers202WithThePurchasesLocationWhileTheOutcomeIsOpen() {
        PurchaseResponse pending = PurchaseResponse.reserved(ANNS);
        given(confirmation.confirm(ANNS, "pay-1", PRICE))
                .willReturn(answer(ResponseEntity.accepted()
                        .location(URI.create("/api/purchases/purchase-s1-ann"))
                        .body(pending)));

        assertThat(confirm("purchase-s1-ann", PAYMENT, TestTokens.payments()))
                .hasStatus(HttpStatus.ACCEPTED)
                .hasHeader(HttpHeaders.LOCATION, "/api/purchases/purchase-s1-ann");
    }

    @Test
    void refusesTheBuyerConfirmingTheirOwnPayment() {
        assertThat(confirm("purchase-s1-ann", PAYMENT, TestTokens.buyer("ann")))
                .satisfies(isProblem(ApiProblem.FORBIDDEN));
        verifyNoInteractions(confirmation);
    }

    @Test
    void refusesAnInvalidPaymentBody() {
        String token = TestTokens.payments();

        assertThat(confirm("purchase-s1-ann", "{\"amount\": {\"amountMinor\": 1999, \"currency\": \"EUR\"}}", token))
                .satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        assertThat(confirm("purchase-s1-ann", PAYMENT.replace("pay-1", "pay 1"), token))
                .satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        assertThat(confirm("purchase-s1-ann", PAYMENT.replace("EUR", "euro"), token))
                .satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        assertThat(confirm("purchase-s1-ann", "{", token)).satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        verifyNoInteractions(confirmation);
    }

    @Test
    void answersAMalformedPurchaseIdAs404() {
        assertThat(confirm("not-a-purchase", PAYMENT, TestTokens.payments()))
                .satisfies(isProblem(ApiProblem.PURCHASE_NOT_FOUND));
    }

    @Test
    void answersTheConfirmationsRefusalsAsProblems() {
        given(confirmation.confirm(ANNS, "pay-1", PRICE))
                .willReturn(CompletableFuture.failedFuture(
                        new ProblemException(ApiProblem.PAYMENT_AMOUNT_MISMATCH, "priced 19.99 EUR")));

        assertThat(confirm("purchase-s1-ann", PAYMENT, TestTokens.payments()))
                .satisfies(isProblem(ApiProblem.PAYMENT_AMOUNT_MISMATCH));
    }

    @Test
    void confirmsASignedWebhookWithoutAToken() {
        given(confirmation.confirm(ANNS, "pay-1", PRICE)).willReturn(answer(ResponseEntity.ok(paid())));

        assertThat(webhook(WEBHOOK)).hasStatus(HttpStatus.OK);
    }

    @Test
    void forgetsAWebhookItCouldNotApplySoTheRedeliveryIsTaken() {
        WebhookSignatures.Delivery delivery = new WebhookSignatures.Delivery("d-1");
        given(signatures.verify(any(), any(), any())).willReturn(delivery);
        given(confirmation.confirm(ANNS, "pay-1", PRICE))
                .willReturn(CompletableFuture.failedFuture(
                        new ProblemException(ApiProblem.UNAVAILABLE, "Temporal is not answering")));

        assertThat(webhook(WEBHOOK)).satisfies(isProblem(ApiProblem.UNAVAILABLE));
        then(signatures).should().forget(delivery);
    }

    @Test
    void forgetsAWebhookThatCameBeforeTheOrderSoTheRedeliveryPays() {
        WebhookSignatures.Delivery delivery = new WebhookSignatures.Delivery("d-3");
        given(signatures.verify(any(), any(), any())).willReturn(delivery);
        given(confirmation.confirm(ANNS, "pay-1", PRICE))
                .willReturn(CompletableFuture.failedFuture(new ProblemException(
                        ApiProblem.PAYMENT_REJECTED,
                        "not awaiting payment",
                        Map.<String, Object>of("purchaseStatus", PurchaseStatus.RESERVED))));

        assertThat(webhook(WEBHOOK)).satisfies(isProblem(ApiProblem.PAYMENT_REJECTED));
        then(signatures).should().forget(delivery);
    }

    @Test
    void keepsAWebhookSeenOnceItsOutcomeIsDecided() {
        given(signatures.verify(any(), any(), any())).willReturn(new WebhookSignatures.Delivery("d-2"));
        given(confirmation.confirm(ANNS, "pay-1", PRICE))
                .willReturn(answer(ResponseEntity.ok(paid())))
                .willReturn(CompletableFuture.failedFuture(
                        new ProblemException(ApiProblem.PAYMENT_REJECTED, "the purchase expired")));

        assertThat(webhook(WEBHOOK)).hasStatus(HttpStatus.OK);
        assertThat(webhook(WEBHOOK)).satisfies(isProblem(ApiProblem.PAYMENT_REJECTED));
        then(signatures).should(never()).forget(any());
    }

    @Test
    void refusesAWebhookWhoseSignatureDoesNotMatch() {
        willThrow(new ProblemException(ApiProblem.WEBHOOK_SIGNATURE_INVALID, "signature does not match"))
                .given(signatures)
                .verify(any(), any(), any());

        assertThat(webhook(WEBHOOK)).satisfies(isProblem(ApiProblem.WEBHOOK_SIGNATURE_INVALID));
        verifyNoInteractions(confirmation);
    }

    @Test
    void refusesAWebhookBodyThatIsNoPayment() {
        assertThat(webhook("{")).satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        assertThat(webhook("{\"purchaseId\": \"purchase-s1-ann\"}"))
                .satisfies(isProblem(ApiProblem.INVALID_REQUEST))
                .bodyJson()
                .extractingPath("$.detail")
                .asString()
                .contains("amount", "paymentId");
        verifyNoInteractions(confirmation);
    }

    @Test
    void refusesABodyAboveTheLimitBeforeReadingIt() {
        String huge = "{\"paymentId\": \"" + "x".repeat(20_000) + "\"}";

        assertThat(webhook(huge)).satisfies(isProblem(ApiProblem.BODY_TOO_LARGE));
        verifyNoInteractions(signatures, confirmation);
    }

    private MvcTestResult confirm(String purchaseId, String body, String token) {
        return mvc.post()
                .uri("/api/purchases/{purchaseId}/payment", purchaseId)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .contentType(MediaType.APPLICATION_JSON)
                .content(body)
                .exchange();
    }

    private MvcTestResult webhook(String body) {
        return mvc.post()
                .uri("/api/payments/webhook")
                .header(WebhookSignatures.TIMESTAMP, "1700000000")
                .header(WebhookSignatures.SIGNATURE, "v1=00")
                .contentType(MediaType.APPLICATION_JSON)
                .content(body)
                .exchange();
    }

    private static PurchaseResponse paid() {
        return PurchaseResponse.of(
                new PurchaseView(ANNS.value(), "s1", "ann", PurchaseStatus.PAID, 7L, null, "pay-1", null));
    }

    private static CompletableFuture<ResponseEntity<PurchaseResponse>> answer(ResponseEntity<PurchaseResponse> answer) {
        return CompletableFuture.completedFuture(answer);
    }
}
