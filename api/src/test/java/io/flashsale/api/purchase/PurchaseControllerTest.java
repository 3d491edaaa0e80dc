package io.flashsale.api.purchase;

import static io.flashsale.api.problem.ProblemAssertions.isProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;

import io.flashsale.api.TestTokens;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.problem.RateLimitedException;
import io.flashsale.api.sale.SalePrices;
import io.flashsale.api.security.WebSliceSecurity;
import io.flashsale.stores.sale.Price;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * The buyer's HTTP contract: statuses, problem types and headers of the purchase (its endpoint in
 * the servlet filters), status and cancel, with the services behind them replaced. The buyer is the token's subject, never a path
 * or body field.
 */
@WebMvcTest(PurchaseController.class)
@Import({WebSliceSecurity.class, PurchaseEndpointConfiguration.class})
@ActiveProfiles("dev")
class PurchaseControllerTest {

    private static final String ANN = TestTokens.buyer("ann");
    private static final PurchaseId ANNS = PurchaseId.of("s1", "ann");

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    PurchaseAdmission admission;

    @MockitoBean
    PurchaseLookup lookup;

    @MockitoBean
    PurchaseCommands commands;

    @MockitoBean
    SalePrices prices;

    @Test
    void admitsWith202AndThePurchasesLocation() {
        given(admission.admit(eq("s1"), eq("ann"), eq("key-1"), anyString()))
                .willReturn(new PurchaseAdmission.Result(PurchaseResponse.reserved(ANNS), true));

        assertThat(purchase("s1", "key-1", ANN))
                .hasStatus(HttpStatus.ACCEPTED)
                .hasHeader(HttpHeaders.LOCATION, "/api/purchases/purchase-s1-ann")
                .bodyJson()
                .extractingPath("$.status")
                .isEqualTo("RESERVED");
    }

    @Test
    void answersARepeatOfTheSameKeyWith200AndNoLocation() {
        given(admission.admit(eq("s1"), eq("ann"), eq("key-1"), anyString()))
                .willReturn(new PurchaseAdmission.Result(PurchaseResponse.reserved(ANNS), false));

        assertThat(purchase("s1", "key-1", ANN))
                .hasStatus(HttpStatus.OK)
                .doesNotContainHeader(HttpHeaders.LOCATION)
                .bodyJson()
                .extractingPath("$.purchaseId")
                .isEqualTo("purchase-s1-ann");
    }

    @Test
    void refusesAMalformedOrMissingIdempotencyKeyBeforeAdmission() {
        assertThat(purchase("s1", "not a key!", ANN)).satisfies(isProblem(ApiProblem.INVALID_IDEMPOTENCY_KEY));
        assertThat(mvc.post().uri("/api/sales/s1/purchases").header(HttpHeaders.AUTHORIZATION, bearer(ANN)))
                .satisfies(isProblem(ApiProblem.INVALID_IDEMPOTENCY_KEY));
        verifyNoInteractions(admission);
    }

    @Test
    void answersAMalformedSaleIdAsAnUnknownSale() {
        assertThat(purchase("no-such-sale", "key-1", ANN)).satisfies(isProblem(ApiProblem.SALE_NOT_FOUND));
        verifyNoInteractions(admission);
    }

    @Test
    void answersTheAdmissionsRefusalsAsProblems() {
        given(admission.admit(eq("s1"), eq("ann"), anyString(), anyString()))
                .willThrow(new ProblemException(ApiProblem.SOLD_OUT, "sale s1 is sold out"));
        given(admission.admit(eq("s2"), eq("ann"), anyString(), anyString()))
                .willThrow(new ProblemException(ApiProblem.SALE_NOT_OPEN, "sale s2 is not open"));

        assertThat(purchase("s1", "key-1", ANN)).satisfies(isProblem(ApiProblem.SOLD_OUT));
        assertThat(purchase("s2", "key-1", ANN)).satisfies(isProblem(ApiProblem.SALE_NOT_OPEN));
    }

    @Test
    void answersAnEmptyTokenBucketWith429AndRetryAfter() {
        given(admission.admit(eq("s1"), eq("ann"), anyString(), anyString())).willThrow(new RateLimitedException(3));

        assertThat(purchase("s1", "key-1", ANN))
                .satisfies(isProblem(ApiProblem.RATE_LIMITED))
                .hasHeader(HttpHeaders.RETRY_AFTER, "3");
    }

    @Test
    void answersAStoreOutageWith503AndRetryAfter() {
        given(admission.admit(eq("s1"), eq("ann"), anyString(), anyString()))
                .willThrow(new DataAccessResourceFailureException("Redis is down"));

        assertThat(purchase("s1", "key-1", ANN))
                .satisfies(isProblem(ApiProblem.UNAVAILABLE))
                .hasHeader(HttpHeaders.RETRY_AFTER, "1");
    }

    @Test
    void refusesARequestWithoutAValidToken() {
        assertThat(mvc.post().uri("/api/sales/s1/purchases").header("Idempotency-Key", "key-1"))
                .satisfies(isProblem(ApiProblem.UNAUTHORIZED))
                .hasHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        assertThat(purchase("s1", "key-1", TestTokens.forged("ann"))).satisfies(isProblem(ApiProblem.UNAUTHORIZED));
        assertThat(purchase("s1", "key-1", TestTokens.expired("ann"))).satisfies(isProblem(ApiProblem.UNAUTHORIZED));
        verifyNoInteractions(admission);
    }

    @Test
    void answersTheBuyersPurchaseWithItsPrice() {
        given(lookup.find(ANNS)).willReturn(Optional.of(PurchaseResponse.of(pendingPayment())));
        given(prices.withoutMySql("s1")).willReturn(Optional.of(new Price(1999, "EUR")));

        assertThat(mvc.get().uri("/api/purchases/purchase-s1-ann").header(HttpHeaders.AUTHORIZATION, bearer(ANN)))
                .hasStatus(HttpStatus.OK)
                .bodyJson()
                .isLenientlyEqualTo(
                        """
                        {"purchaseId": "purchase-s1-ann", "status": "PENDING_PAYMENT", "orderId": 7,
                         "price": {"amountMinor": 1999, "currency": "EUR"},
                         "links": {"self": "/api/purchases/purchase-s1-ann",
                                   "cancel": "/api/purchases/purchase-s1-ann/cancel"}}
                        """);
    }

    @Test
    void answersSomeoneElsesOrAnUnknownPurchaseAs404() {
        given(lookup.find(ANNS)).willReturn(Optional.empty());

        assertThat(status("purchase-s1-bob", ANN)).satisfies(isProblem(ApiProblem.PURCHASE_NOT_FOUND));
        assertThat(status("not-a-purchase", ANN)).satisfies(isProblem(ApiProblem.PURCHASE_NOT_FOUND));
        assertThat(status("purchase-s1-ann", ANN)).satisfies(isProblem(ApiProblem.PURCHASE_NOT_FOUND));
    }

    @Test
    void cancelsTheBuyersOwnPurchaseOnly() {
        PurchaseResponse cancelled = PurchaseResponse.of(pendingPayment());
        given(commands.cancel(ANNS)).willReturn(CompletableFuture.completedFuture(ResponseEntity.ok(cancelled)));

        assertThat(cancel("purchase-s1-ann", ANN)).hasStatus(HttpStatus.OK);
        assertThat(cancel("purchase-s1-bob", ANN)).satisfies(isProblem(ApiProblem.PURCHASE_NOT_FOUND));
    }

    @Test
    void answersACancelRefusedByTheWorkflowAsAProblem() {
        given(commands.cancel(ANNS))
                .willReturn(CompletableFuture.failedFuture(
                        new ProblemException(ApiProblem.CANCEL_REJECTED, "purchase-s1-ann is PAID")));

        assertThat(cancel("purchase-s1-ann", ANN)).satisfies(isProblem(ApiProblem.CANCEL_REJECTED));
    }

    private MvcTestResult purchase(String saleId, String idempotencyKey, String token) {
        return mvc.post()
                .uri("/api/sales/{saleId}/purchases", saleId)
                .header("Idempotency-Key", idempotencyKey)
                .header(HttpHeaders.AUTHORIZATION, bearer(token))
                .exchange();
    }

    private MvcTestResult status(String purchaseId, String token) {
        return mvc.get()
                .uri("/api/purchases/{purchaseId}", purchaseId)
                .header(HttpHeaders.AUTHORIZATION, bearer(token))
                .exchange();
    }

    private MvcTestResult cancel(String purchaseId, String token) {
        return mvc.post()
                .uri("/api/purchases/{purchaseId}/cancel", purchaseId)
                .header(HttpHeaders.AUTHORIZATION, bearer(token))
                .exchange();
    }

    private static PurchaseView pendingPayment() {
        return new PurchaseView(
                ANNS.value(), "s1", "ann", PurchaseStatus.PENDING_PAYMENT, 7L, Instant.now(), null, null);
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }
}
