package io.flashsale.api.audit;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.sale.SaleIds;
import io.flashsale.stores.audit.AdmissionsInFlightException;
import io.flashsale.stores.audit.AuditReport;
import io.flashsale.stores.audit.RepairReport;
import io.flashsale.stores.audit.SaleArchivedException;
import io.flashsale.stores.audit.SaleAudit;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The invariant audit (scope {@code admin}): every sale's id, one sale's report (PASS or FAIL with
 * its violations), and the repair of a sale's Redis state from MySQL and Temporal facts.
 */
@RestController
class AuditController {

    /** The ids of every sale, oldest first: what {@code bin/flashsale audit} walks. */
    record SaleList(List<String> sales) {}

    private final SaleAudit audit;

    AuditController(SaleAudit audit) {
        this.audit = audit;
    }

    @GetMapping("/api/sales")
    SaleList sales() {
        return new SaleList(audit.saleIds());
    }

    /** 200 with the report whatever the verdict; {@code result} says PASS or FAIL. */
    @GetMapping("/api/sales/{saleId}/audit")
    AuditReport audit(@PathVariable String saleId) {
        return known(saleId, audit::audit);
    }

    /**
     * 200 with what changed and the audit afterwards; 409 admissions-in-flight while the relay works;
     * 409 sale-archived once the sale's Redis side is archived (nothing there to repair).
     */
    @PostMapping("/api/sales/{saleId}/audit/repair")
    RepairReport repair(@PathVariable String saleId) {
        try {
            return known(saleId, audit::repair);
        } catch (AdmissionsInFlightException e) {
            throw new ProblemException(ApiProblem.ADMISSIONS_IN_FLIGHT, e.getMessage());
        } catch (SaleArchivedException e) {
            throw new ProblemException(ApiProblem.SALE_ARCHIVED, e.getMessage());
        }
    }

    /** Unknown sale: 404; Temporal unreachable (the workflow facts are missing): 503. */
    private static <T> T known(String saleId, Function<String, Optional<T>> action) {
        try {
            return SaleIds.requireValid(saleId)
                    .flatMap(action)
                    .orElseThrow(() -> new ProblemException(ApiProblem.SALE_NOT_FOUND, "no sale " + saleId));
        } catch (StatusRuntimeException temporalDown) {
            throw new ProblemException(ApiProblem.UNAVAILABLE, "Temporal is unavailable, audit again shortly");
        }
    }
}
