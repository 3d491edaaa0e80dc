package io.flashsale.api.sale;

import static io.flashsale.api.problem.ProblemAssertions.isProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.verifyNoInteractions;

import io.flashsale.api.TestTokens;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.security.WebSliceSecurity;
import io.flashsale.stores.sale.SaleChanges;
import io.flashsale.stores.sale.SaleChanges.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/**
 * The HTTP contract of a live sale's changes (scope {@code admin}): the sale view on a change or a
 * repeat, one problem type per refusal, the Idempotency-Key and body rules.
 */
@WebMvcTest(SaleChangeController.class)
@Import(WebSliceSecurity.class)
@ActiveProfiles("dev")
class SaleChangeControllerTest {

    private static final String ADMIN = TestTokens.admin();

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    SaleChanges changes;

    @MockitoBean
    SaleAdmin admin;

    @MockitoBean
    SaleViews views;

    @Test
    void answersAChangeWithTheSaleViewAndRecordsWhoMadeIt() {
        given(changes.restock("s1", "key-1", 5, "admin")).willReturn(Outcome.CHANGED);
        given(admin.find("s1")).willReturn(SaleControllerTest.SALE);
        given(views.of(SaleControllerTest.SALE)).willReturn(SaleControllerTest.view(SaleControllerTest.SALE));

        assertThat(change("restock", "key-1", "{\"units\": 5}", ADMIN))
                .hasStatus(HttpStatus.OK)
                .bodyJson()
                .extractingPath("$.id")
                .isEqualTo("s1");
        then(changes).should().restock("s1", "key-1", 5, "admin");
    }

    @Test
    void answersARepeatWith200Too() {
        given(changes.close("s1", "admin")).willReturn(Outcome.UNCHANGED);
        given(admin.find("s1")).willReturn(SaleControllerTest.SALE);
        given(views.of(SaleControllerTest.SALE)).willReturn(SaleControllerTest.view(SaleControllerTest.SALE));

        assertThat(change("close", null, null, ADMIN)).hasStatus(HttpStatus.OK);
    }

    @ParameterizedTest
    @CsvSource({
        "NOT_FOUND, SALE_NOT_FOUND",
        "CLOSED, SALE_CLOSED",
        "IN_PAST, WINDOW_IN_PAST",
        "INVALID_WINDOW, INVALID_REQUEST",
        "KEY_CONFLICT, CHANGE_CONFLICT",
        "STORES_APART, SALE_NEEDS_REPAIR",
        "ARCHIVED, SALE_ARCHIVED"
    })
    void answersEachRefusalWithItsProblem(Outcome outcome, ApiProblem problem) {
        given(changes.withdraw("s1", "key-1", 2, "admin")).willReturn(outcome);

        assertThat(change("withdraw", "key-1", "{\"units\": 2}", ADMIN)).satisfies(isProblem(problem));
    }

    @Test
    void refusesAMissingOrMalformedIdempotencyKey() {
        assertThat(change("restock", null, "{\"units\": 5}", ADMIN))
                .satisfies(isProblem(ApiProblem.INVALID_IDEMPOTENCY_KEY));
        assertThat(change("restock", "not a key!", "{\"units\": 5}", ADMIN))
                .satisfies(isProblem(ApiProblem.INVALID_IDEMPOTENCY_KEY));
        verifyNoInteractions(changes);
    }

    @Test
    void refusesAnInvalidChange() {
        assertThat(change("restock", "key-1", "{\"units\": 0}", ADMIN))
                .satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        assertThat(change("move", null, "{}", ADMIN)).satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        assertThat(mvc.post()
                        .uri("/api/sales/{saleId}/close", "s-1")
                        .header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN))
                .satisfies(isProblem(ApiProblem.SALE_NOT_FOUND));
        verifyNoInteractions(changes);
    }

    @Test
    void refusesABuyer() {
        assertThat(change("close", null, null, TestTokens.buyer("ann"))).satisfies(isProblem(ApiProblem.FORBIDDEN));
        verifyNoInteractions(changes);
    }

    private MvcTestResult change(String change, String idempotencyKey, String body, String token) {
        var request = mvc.post()
                .uri("/api/sales/{saleId}/{change}", "s1", change)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token);
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        if (body != null) {
            request.contentType(MediaType.APPLICATION_JSON).content(body);
        }
        return request.exchange();
    }
}
