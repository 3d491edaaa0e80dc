package io.flashsale.api.purchase;

import io.flashsale.api.ApiProperties;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.problem.RateLimitedException;
import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.AdmissionGate.Client;
import io.flashsale.stores.admission.AdmissionOutcome;
import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.admission.SoldOutMarks;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * The hot path. Once Redis said a sale is sold out, the sale's {@link SoldOutMarks mark} answers
 * later buyers (none of its buyers) from memory, without a Redis round trip and without spending a
 * rate-limit token: the answer is a refusal either way. Otherwise one Lua call decides, rate limit
 * included (limited_admit.lua): rate-limited, sold-out and duplicate traffic ends there, touching
 * neither Temporal nor MySQL. An admitted
 * buyer's workflow is started here, and the stream entry the Lua wrote (the outbox) is dropped
 * once it runs; if the start fails, the worker's relay starts it.
 */
@Service
class PurchaseAdmission {

    private static final Logger log = LoggerFactory.getLogger(PurchaseAdmission.class);

    private final AdmissionGate gate;
    private final PurchaseStarter starter;
    private final PurchaseLookup lookup;
    private final RateLimits limits;
    private final SoldOutMarks soldOutMarks;
    private final Map<AdmissionOutcome, Counter> outcomes = new EnumMap<>(AdmissionOutcome.class);
    private final Counter deferredStarts;
    private final Counter soldOutFromMemory;

    PurchaseAdmission(
            AdmissionGate gate,
            PurchaseStarter starter,
            PurchaseLookup lookup,
            SoldOutMarks soldOutMarks,
            ApiProperties properties,
            MeterRegistry meters) {
        this.gate = gate;
        this.starter = starter;
        this.lookup = lookup;
        this.soldOutMarks = soldOutMarks;
        this.limits = properties.rateLimit();
        for (AdmissionOutcome outcome : AdmissionOutcome.values()) {
            outcomes.put(outcome, meters.counter("flashsale.admissions", "outcome", outcome.name()));
        }
        this.deferredStarts = meters.counter("flashsale.admissions.deferred.starts");
        this.soldOutFromMemory = meters.counter("flashsale.admissions.sold.out.from.memory");
    }

    /** The purchase, and whether this request admitted it (false: a repeat with the same key). */
    record Result(PurchaseResponse purchase, boolean admitted) {}

    /**
     * Idempotent by (sale, user): the Lua's buyers hash answers a repeat with the same purchase. Every
     * call spends a token of the user's and the address's bucket; an empty bucket ends it with 429.
     */
    Result admit(String saleId, String userId, String idempotencyKey, String clientAddress) {
        if (soldOutMarks.refuses(saleId, userId)) {
            outcomes.get(AdmissionOutcome.SOLD_OUT).increment();
            soldOutFromMemory.increment();
            throw soldOut(saleId);
        }
        Admission admission = gate.admit(saleId, userId, idempotencyKey, new Client(clientAddress, limits));
        outcomes.get(admission.outcome()).increment();
        PurchaseId id = PurchaseId.of(saleId, userId);
        return switch (admission.outcome()) {
            case ADMITTED -> new Result(started(id, admission), true);
            case SAME_KEY -> new Result(lookup.find(id).orElseGet(() -> PurchaseResponse.reserved(id)), false);
            case ALREADY_PURCHASED -> throw new ProblemException(
                    ApiProblem.ALREADY_PURCHASED,
                    "user already holds a purchase in sale " + saleId,
                    Map.of("purchaseId", admission.purchaseId()));
            case SOLD_OUT -> {
                soldOutMarks.soldOut(saleId);
                throw soldOut(saleId);
            }
            case NOT_OPEN -> throw new ProblemException(ApiProblem.SALE_NOT_OPEN, "sale " + saleId + " is not open");
            case UNKNOWN_SALE -> throw new ProblemException(ApiProblem.SALE_NOT_FOUND, "no sale " + saleId);
            case RATE_LIMITED -> throw new RateLimitedException(admission.retryAfterSeconds());
        };
    }

    private static ProblemException soldOut(String saleId) {
        return new ProblemException(ApiProblem.SOLD_OUT, "sale " + saleId + " is sold out");
    }

    private PurchaseResponse started(PurchaseId id, Admission admission) {
        try {
            starter.start(new PurchaseRequest(id.value(), id.saleId(), id.userId(), admission.payTimeoutSeconds()));
            gate.forget(id.saleId(), admission.entryId());
        } catch (RuntimeException e) {
            // the admission stays in the sale's stream; the relay starts the workflow when it can
            deferredStarts.increment();
            log.warn("workflow start deferred to the relay purchaseId={}: {}", id.value(), e.toString());
        }
        return PurchaseResponse.reserved(id);
    }
}
