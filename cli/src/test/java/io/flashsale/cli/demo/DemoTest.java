package io.flashsale.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.stores.audit.Violation;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a demo sale came to ({@link DemoResult}), on hand-made counts. */
class DemoTest {

    private static final Map<String, Long> BURST = Map.of("admitted", 100L, "sold-out", 1900L, "same-key", 95L);

    @Test
    void addsUpWhenEveryOrderEndedPaidExpiredOrCancelled() {
        DemoResult result = result(100, 100, 0, 30, 68, 2, AuditVerdict.PASS);

        assertThat(result.addsUp()).isTrue();
        assertThat(result.passed()).isTrue();
    }

    @Test
    void countsUnitsBoughtAgainAfterTheirOrderExpiredAsResold() {
        DemoResult result = result(100, 173, 0, 51, 122, 0, AuditVerdict.PASS);

        assertThat(result.resold()).isEqualTo(73);
        assertThat(result.addsUp()).isTrue();
    }

    @Test
    void countsNothingResoldWhileOrdersStayWithinTheUnits() {
        assertThat(result(100, 100, 0, 30, 70, 0, AuditVerdict.PASS).resold()).isZero();
        assertThat(result(100, 40, 0, 40, 0, 0, AuditVerdict.PASS).resold()).isZero();
    }

    @Test
    void doesNotAddUpWhileOrdersStillAwaitPayment() {
        DemoResult result = result(100, 103, 3, 30, 70, 0, AuditVerdict.FAIL);

        assertThat(result.settled()).isFalse();
        assertThat(result.addsUp()).isFalse();
        assertThat(result.lines())
                .contains("adds up    103 orders = 30 paid + 70 expired + 0 cancelled" + " (+ 3 PENDING_PAYMENT): NO");
    }

    @Test
    void doesNotAddUpWhenAnAdmittedPurchaseHasNoFinalOrder() {
        DemoResult result = result(100, 103, 0, 30, 72, 0, AuditVerdict.PASS);

        assertThat(result.addsUp()).isFalse();
        assertThat(result.passed()).isFalse();
    }

    @Test
    void failsWhenTheAuditFailsThoughTheCountsAddUp() {
        DemoResult result = result(100, 100, 0, 30, 70, 0, AuditVerdict.FAIL);

        assertThat(result.addsUp()).isTrue();
        assertThat(result.passed()).isFalse();
    }

    @Test
    void printsEachViolationOfAFailedAudit() {
        AuditReport failed = new AuditReport(
                "s1",
                100,
                0,
                0,
                30,
                70,
                0,
                null,
                0,
                0,
                0,
                0,
                0,
                List.of(new Violation("I3", "Redis has no stock for the sale")),
                AuditVerdict.FAIL,
                null);

        assertThat(new DemoResult("s1", BURST, 100, Map.of("PAID", 30L), failed, Optional.empty()).lines())
                .containsSubsequence("audit      FAIL", "           I3: Redis has no stock for the sale");
    }

    @Test
    void failsWhenThePaymentsAnsweredPaidAreNotThePaidOrders() {
        DemoResult result = new DemoResult(
                "s1", BURST, 100, Map.of("PAID", 30L), audit(100, 0, 31, 69, 0, AuditVerdict.PASS), Optional.empty());

        assertThat(result.paymentsAgree()).isFalse();
        assertThat(result.passed()).isFalse();
    }

    @Test
    void printsTheCountsTheResaleAndTheAuditVerdict() {
        DemoResult result = new DemoResult(
                "s1",
                Map.of("admitted", 173L, "rate-limited", 2L),
                173,
                Map.of("PAID", 51L, "EXPIRED", 1L),
                audit(100, 0, 51, 122, 0, AuditVerdict.PASS),
                Optional.of(URI.create("http://localhost:8233/namespaces/default/workflows?query=SaleId%3D%22s1%22")));

        assertThat(result.lines())
                .contains(
                        "requests   175 answered: admitted 173, rate-limited 2",
                        "orders     173 for 100 units, 73 resold (bought again after an order expired or was cancelled)",
                        "paid       51 (payments sent: 52, EXPIRED 1, PAID 51)",
                        "expired    122",
                        "adds up    173 orders = 51 paid + 122 expired + 0 cancelled: yes",
                        "audit      PASS",
                        "Web UI     http://localhost:8233/namespaces/default/workflows?query=SaleId%3D%22s1%22");
    }

    private static DemoResult result(
            int units, long orders, int pending, int paid, int expired, int cancelled, AuditVerdict audit) {
        return new DemoResult(
                "s1",
                BURST,
                orders,
                Map.of("PAID", (long) paid),
                audit(units, pending, paid, expired, cancelled, audit),
                Optional.empty());
    }

    /** The audit's counts of a sale of {@code units}; its verdict {@code verdict}. */
    private static AuditReport audit(
            int units, int pending, int paid, int expired, int cancelled, AuditVerdict verdict) {
        return new AuditReport(
                "s1", units, 0, pending, paid, expired, cancelled, null, 0, 0, 0, 0, 0, List.of(), verdict, null);
    }
}
