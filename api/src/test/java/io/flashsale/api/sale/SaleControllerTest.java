package io.flashsale.api.sale;

import static io.flashsale.api.problem.ProblemAssertions.isProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;

import io.flashsale.api.TestTokens;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.security.WebSliceSecurity;
import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.sale.Price;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleCounts;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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

/** Sale admin's HTTP contract (scope {@code admin}): create, read, their statuses and validation. */
@WebMvcTest(SaleController.class)
@Import(WebSliceSecurity.class)
@ActiveProfiles("dev")
class SaleControllerTest {

    private static final String BODY =
            """
            {"id": "s1", "name": "Sneakers", "stock": 10, "payTimeout": "PT10M",
             "price": {"amountMinor": 1999, "currency": "EUR"}}""";
    static final Sale SALE = new Sale(
            "s1", "Sneakers", 10, 10, null, null, Duration.ofMinutes(10), RateLimits.NONE, new Price(1999, "EUR"));

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    SaleAdmin admin;

    @MockitoBean
    SaleViews views;

    @BeforeEach
    void saleHasNoOrdersAndTenUnitsInRedis() {
        given(views.of(SALE)).willReturn(view(SALE));
    }

    @Test
    void createsASaleWith201AndItsLocation() {
        given(admin.create(any())).willReturn(new SaleAdmin.Created(SALE, true));

        assertThat(create(BODY, TestTokens.admin()))
                .hasStatus(HttpStatus.CREATED)
                .hasHeader(HttpHeaders.LOCATION, "/api/sales/s1")
                .bodyJson()
                .isLenientlyEqualTo(
                        """
                        {"id": "s1", "total": 10, "available": 10, "redisStock": 10, "payTimeout": "PT10M"}""");
    }

    @Test
    void answersTheSameSaleCreatedAgainWith200() {
        given(admin.create(any())).willReturn(new SaleAdmin.Created(SALE, false));

        assertThat(create(BODY, TestTokens.admin()))
                .hasStatus(HttpStatus.OK)
                .doesNotContainHeader(HttpHeaders.LOCATION);
    }

    @Test
    void answersASaleThatExistsOtherwiseWith409() {
        given(admin.create(any())).willThrow(new ProblemException(ApiProblem.SALE_CONFLICT, "s1 exists"));

        assertThat(create(BODY, TestTokens.admin())).satisfies(isProblem(ApiProblem.SALE_CONFLICT));
    }

    @Test
    void refusesAnInvalidSale() {
        String admin = TestTokens.admin();

        assertThat(create(BODY.replace("\"s1\"", "\"s-1\""), admin)).satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        assertThat(create(BODY.replace("\"stock\": 10", "\"stock\": 0"), admin))
                .satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        assertThat(create(BODY.replace("PT10M", "PT0S"), admin)).satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        assertThat(create("{\"name\": \"no price\", \"stock\": 1}", admin))
                .satisfies(isProblem(ApiProblem.INVALID_REQUEST));
        verifyNoInteractions(this.admin);
    }

    @Test
    void readsASaleOrAnswers404() {
        given(admin.find("s1")).willReturn(SALE);
        given(admin.find("s2")).willThrow(new ProblemException(ApiProblem.SALE_NOT_FOUND, "no sale s2"));

        assertThat(read("s1", TestTokens.admin()))
                .hasStatus(HttpStatus.OK)
                .bodyJson()
                .extractingPath("$.redisStock")
                .isEqualTo(10);
        assertThat(read("s2", TestTokens.admin())).satisfies(isProblem(ApiProblem.SALE_NOT_FOUND));
    }

    @Test
    void refusesABuyer() {
        assertThat(create(BODY, TestTokens.buyer("ann"))).satisfies(isProblem(ApiProblem.FORBIDDEN));
        assertThat(read("s1", TestTokens.buyer("ann"))).satisfies(isProblem(ApiProblem.FORBIDDEN));
        verifyNoInteractions(admin);
    }

    /** The sale as SaleViews shows it: ten units in Redis, no orders, no changes. */
    static SaleResponse view(Sale sale) {
        return SaleResponse.of(sale, 10L, new SaleCounts(0, 0, 0, 0), List.of());
    }

    private MvcTestResult create(String body, String token) {
        return mvc.post()
                .uri("/api/sales")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .contentType(MediaType.APPLICATION_JSON)
                .content(body)
                .exchange();
    }

    private MvcTestResult read(String saleId, String token) {
        return mvc.get()
                .uri("/api/sales/{saleId}", saleId)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + token)
                .exchange();
    }
}
