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
import io.flashsale.stores.replication.ReplicaAcks;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * The hot path. Once Redis said a sale is sold out, the sale's {@link SoldOutMarks mark} answers
 * later buyers (none of its buyers) from memory, without a Redis round trip and without spending a
 * rate-limit token: the answer is a refusal either way. Otherwise one Lua call decides, rate limit
 * included (limited_admit.lua): rate-limited, sold-out and duplicate traffic ends there, touching
 * neither Temporal nor MySQL. An admitted buyer is answered as soon as the Lua returns and, where
 * replicas are asked for, they have it ({@link ReplicaAcks}): the stream entry it wrote in the same
 * atomic step (the outbox) is the durable record of the purchase, and
 * {@link StartQueue} turns it into a workflow off the request thread. A repeat with the same key
 * is answered from the hold the same Lua call read, without asking Temporal. The Lua call is a span
 * of the request's trace ({@value #SCRIPT_SPAN}); a request not sampled pays for a span that records
 * nothing.
 */
@Service
class PurchaseAdmission {

    static final String SCRIPT_SPAN = "admit.lua";

    private final AdmissionGate gate;
    private final StartQueue starts;
    private final RateLimits limits;
    private final SoldOutMarks soldOutMarks;
    private final Map<AdmissionOutcome, Counter> outcomes = new EnumMap<>(AdmissionOutcome.class);
    private final Map<AdmissionOutcome, Timer> latency = new EnumMap<>(AdmissionOutcome.class);
    private final Counter soldOutFromMemory;
    private final ReplicaAcks acks;
    private final Map<ReplicaAcks.Ack, Counter> acknowledged = new EnumMap<>(ReplicaAcks.Ack.class);
    private final Tracer tracer;

    PurchaseAdmission(
            AdmissionGate gate,
            StartQueue starts,
            SoldOutMarks soldOutMarks,
            ReplicaAcks acks,
            ApiProperties properties,
            MeterRegistry meters,
            ObjectProvider<Tracer> tracer) {
        this.gate = gate;
        this.tracer = tracer.getIfAvailable(() -> Tracer.NOOP);
        this.starts = starts;
        this.soldOutMarks = soldOutMarks;
        this.limits = properties.rateLimit();
        for (AdmissionOutcome outcome : AdmissionOutcome.values()) {
            outcomes.put(outcome, meters.counter("flashsale.admissions", "outcome", outcome.name()));
            latency.put(
                    outcome,
                    Timer.builder("flashsale.admission")
                            .description("from the purchase request to its answer's outcome: the mark, or admit.lua")
                            .tag("outcome", outcome.name())
                            .publishPercentileHistogram()
                            .register(meters));
        }
        this.soldOutFromMemory = meters.counter("flashsale.admissions.sold.out.from.memory");
        this.acks = acks;
        for (ReplicaAcks.Ack ack : ReplicaAcks.Ack.values()) {
            acknowledged.put(
                    ack,
                    Counter.builder("flashsale.admissions.acknowledged")
                            .description("admissions by who had them before their 202: replicas, the master only,"
                                    + " or no replica asked for")
                            .tag("by", ack.name())
                            .register(meters));
        }
    }

    /** The purchase, and whether this request admitted it (false: a repeat with the same key). */
    record Result(PurchaseResponse purchase, boolean admitted) {}

    /**
     * Idempotent by (sale, user): the Lua's buyers hash answers a repeat with the same purchase. Every
     * call spends a token of the user's and the address's bucket; an empty bucket ends it with 429.
     */
    Result admit(String saleId, String userId, String idempotencyKey, String clientAddress) {
        long start = System.nanoTime();
        if (soldOutMarks.refuses(saleId, userId)) {
            count(AdmissionOutcome.SOLD_OUT, start);
            soldOutFromMemory.increment();
            throw soldOut(saleId);
        }
        Admission admission = admitInScript(saleId, userId, idempotencyKey, clientAddress);
        PurchaseId id = PurchaseId.of(saleId, userId);
        if (admission.outcome() == AdmissionOutcome.ADMITTED) {
            starts.submit(id, admission);
        }
        if (admission.outcome() == AdmissionOutcome.ADMITTED || admission.outcome() == AdmissionOutcome.SAME_KEY) {
            // a repeat may come while the first answer is still waiting: neither goes out before a replica has it
            acknowledged.get(acks.await()).increment();
        }
        count(admission.outcome(), start);
        return switch (admission.outcome()) {
            case ADMITTED -> new Result(PurchaseResponse.reserved(id), true);
            case SAME_KEY -> new Result(PurchaseResponse.repeated(id, admission.hold()), false);
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

    private Admission admitInScript(String saleId, String userId, String idempotencyKey, String clientAddress) {
        Span span = tracer.nextSpan()
                .name(SCRIPT_SPAN)
                .tag("flashsale.sale", saleId)
                .start();
        try (Tracer.SpanInScope ignored = tracer.withSpan(span)) {
            Admission admission = gate.admit(saleId, userId, idempotencyKey, new Client(clientAddress, limits));
            span.tag("flashsale.outcome", admission.outcome().name());
            return admission;
        } catch (RuntimeException e) {
            span.error(e);
            throw e;
        } finally {
            span.end();
        }
    }

    private void count(AdmissionOutcome outcome, long startNanos) {
        outcomes.get(outcome).increment();
        latency.get(outcome).record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    private static ProblemException soldOut(String saleId) {
        return new ProblemException(ApiProblem.SOLD_OUT, "sale " + saleId + " is sold out");
    }
}
