package io.flashsale.api.audit;

import static io.flashsale.api.problem.ProblemAssertions.isProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;

import io.flashsale.api.TestTokens;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.security.WebSliceSecurity;
import io.flashsale.stores.audit.AdmissionsInFlightException;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.stores.audit.SaleArchivedException;
import io.flashsale.stores.audit.SaleAudit;
import io.flashsale.stores.audit.Violation;
import io.grpc.Status;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

/** The audit's HTTP contract (scope {@code admin}): sales, reports, repairs and their refusals. */
@WebMvcTest(AuditController.class)
@Import(WebSliceSecurity.class)
@ActiveProfiles("dev")
class AuditControllerTest {

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    SaleAudit audit;

    @Test
    void listsEverySale() {
        given(audit.saleIds()).willReturn(List.of("s1", "s2"));

        assertThat(mvc.get().uri("/api/sales").header(HttpHeaders.AUTHORIZATION, bearer(TestTokens.admin())))
                .hasStatus(HttpStatus.OK)
                .bodyJson()
                .isLenientlyEqualTo("{\"sales\": [\"s1\", \"s2\"]}");
    }

    @Test
    void answersAFailedAuditWith200AndItsViolations() {
        given(audit.audit("s1")).willReturn(Optional.of(failed("s1")));

        assertThat(get("/api/sales/s1/audit"))
                .hasStatus(HttpStatus.OK)
                .bodyJson()
                .isLenientlyEqualTo(
                        "{\"saleId\": \"s1\", \"result\": \"FAIL\", \"violations\": [{\"invariant\": \"I1\"}]}");
    }

    @Test
    void answersAnUnknownOrMalformedSaleWith404() {
        given(audit.audit("s9")).willReturn(Optional.empty());

        assertThat(get("/api/sales/s9/audit")).satisfies(isProblem(ApiProblem.SALE_NOT_FOUND));
        assertThat(get("/api/sales/s-9/audit")).satisfies(isProblem(ApiProblem.SALE_NOT_FOUND));
    }

    @Test
    void answersWith503WhileTemporalIsUnreachable() {
        given(audit.audit("s1")).willThrow(Status.UNAVAILABLE.asRuntimeException());

        assertThat(get("/api/sales/s1/audit")).satisfies(isProblem(ApiProblem.UNAVAILABLE));
    }

    @Test
    void refusesARepairWhileAdmissionsAreInFlightOrOnceTheSaleIsArchived() {
        given(audit.repair("s1")).willThrow(new AdmissionsInFlightException("s1"));
        given(audit.repair("s2")).willThrow(new SaleArchivedException("s2"));

        assertThat(repair("s1")).satisfies(isProblem(ApiProblem.ADMISSIONS_IN_FLIGHT));
        assertThat(repair("s2")).satisfies(isProblem(ApiProblem.SALE_ARCHIVED));
    }

    @Test
    void refusesABuyer() {
        String buyer = bearer(TestTokens.buyer("ann"));

        assertThat(mvc.get().uri("/api/sales").header(HttpHeaders.AUTHORIZATION, buyer))
                .satisfies(isProblem(ApiProblem.FORBIDDEN));
        assertThat(mvc.get().uri("/api/sales/s1/audit").header(HttpHeaders.AUTHORIZATION, buyer))
                .satisfies(isProblem(ApiProblem.FORBIDDEN));
        assertThat(mvc.post().uri("/api/sales/s1/audit/repair").header(HttpHeaders.AUTHORIZATION, buyer))
                .satisfies(isProblem(ApiProblem.FORBIDDEN));
        verifyNoInteractions(audit);
    }

    private MvcTestResult get(String uri) {
        return mvc.get()
                .uri(uri)
                .header(HttpHeaders.AUTHORIZATION, bearer(TestTokens.admin()))
                .exchange();
    }

    private MvcTestResult repair(String saleId) {
        return mvc.post()
                .uri("/api/sales/{saleId}/audit/repair", saleId)
                .header(HttpHeaders.AUTHORIZATION, bearer(TestTokens.admin()))
                .exchange();
    }

    private static AuditReport failed(String saleId) {
        return new AuditReport(
                saleId,
                3,
                1,
                1,
                0,
                0,
                0,
                2L,
                1,
                0,
                1,
                0,
                1,
                List.of(new Violation("I1", "MySQL and Redis disagree")),
                AuditVerdict.FAIL,
                null);
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }
}
