package io.flashsale.api.purchase;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.sale.SalePrices;
import io.flashsale.stores.payment.PaymentRefunds;
import io.flashsale.stores.payment.PaymentRefunds.RefundNeeded;
import io.flashsale.stores.sale.Price;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Service;

/**
 * The payment service says money arrived for a purchase (with a {@code payments} token or through
 * the signed webhook). The amount must be the sale's price; then the workflow's {@code pay} Update
 * decides. Money for a purchase that can no longer be paid (expired, cancelled, rejected, or paid
 * with another payment) is recorded as a refund to make, not lost.
 */
@Service
class PaymentConfirmation {

    private static final Logger log = LoggerFactory.getLogger(PaymentConfirmation.class);

    private final SalePrices prices;
    private final Executor executor;
    private final PurchaseCommands commands;
    private final PaymentRefunds refunds;
    private final Counter refundsNeeded;
    private final MeterRegistry meters;

    PaymentConfirmation(
            SalePrices prices,
            PurchaseCommands commands,
            PaymentRefunds refunds,
            @Qualifier("purchaseCommandExecutor") Executor executor,
            MeterRegistry meters) {
        this.prices = prices;
        this.executor = executor;
        this.commands = commands;
        this.refunds = refunds;
        this.meters = meters;
        this.refundsNeeded = Counter.builder("flashsale.payments.refunds.needed")
                .description("payments that arrived for purchases that can no longer be paid")
                .register(meters);
    }

    /**
     * Idempotent by payment id: a repeat of an accepted payment answers PAID again (the workflow's
     * validator and UNIQUE(payment_id)), a repeat of a refused one records its refund once
     * (primary key of payment_refunds).
     */
    CompletableFuture<ResponseEntity<PurchaseResponse>> confirm(PurchaseId id, String paymentId, Price amount) {
        long start = System.nanoTime();
        return CompletableFuture.runAsync(() -> requirePrice(id, amount), executor)
                .thenCompose(priced -> commands.pay(id, paymentId))
                .exceptionally(failure -> {
                    throw refundIfRefused(id, paymentId, amount, failure);
                })
                .whenComplete((answer, failure) ->
                        timer(outcome(answer, failure)).record(System.nanoTime() - start, TimeUnit.NANOSECONDS));
    }

    /** PAID, ACCEPTED (not decided within the answer's wait), or the problem's type (e.g. payment-rejected). */
    private static String outcome(ResponseEntity<PurchaseResponse> answer, Throwable failure) {
        if (failure == null) {
            return answer.getStatusCode().value() == 200 ? "PAID" : "ACCEPTED";
        }
        return Failures.root(failure) instanceof ProblemException problem
                ? problem.problem().slug()
                : "error";
    }

    private Timer timer(String outcome) {
        return Timer.builder("flashsale.payment.confirmation")
                .description("from a payment's confirmation request to its answer, by outcome")
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .register(meters);
    }

    /**
     * On the commands' executor, like the Update itself: when the price must come from MySQL and
     * MySQL is slow, no HTTP thread waits for it.
     */
    private void requirePrice(PurchaseId id, Price amount) {
        Price price = prices.of(id.saleId()).orElseThrow(() -> PurchaseCommands.notFound(id));
        if (!price.isPaidBy(amount)) {
            throw new ProblemException(
                    ApiProblem.PAYMENT_AMOUNT_MISMATCH,
                    "payment of " + amount + " for purchase " + id.value() + " priced " + price,
                    Map.of("price", price));
        }
    }

    /** Ended, or paid with another payment: this money can only go back. */
    private static boolean cannotBePaidAnyMore(PurchaseStatus status) {
        return status != PurchaseStatus.PENDING_PAYMENT && status != PurchaseStatus.RESERVED;
    }

    private RuntimeException refundIfRefused(PurchaseId id, String paymentId, Price amount, Throwable failure) {
        Throwable cause = Failures.root(failure);
        if (!(cause instanceof ProblemException refused) || refused.problem() != ApiProblem.PAYMENT_REJECTED) {
            return Failures.unchecked(cause);
        }
        PurchaseStatus status = PurchaseStatus.valueOf(
                refused.properties().get("purchaseStatus").toString());
        if (!cannotBePaidAnyMore(status)) {
            return refused;
        }
        if (refunds.record(new RefundNeeded(paymentId, id.value(), id.saleId(), amount, status))) {
            refundsNeeded.increment();
            log.warn("refund needed paymentId={} purchaseId={} status={}", paymentId, id.value(), status);
        }
        Map<String, Object> properties = new HashMap<>(refused.properties());
        properties.put("refundNeeded", true);
        return new ProblemException(ApiProblem.PAYMENT_REJECTED, refused.getMessage(), properties);
    }
}
