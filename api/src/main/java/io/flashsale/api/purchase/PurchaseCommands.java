package io.flashsale.api.purchase;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateException;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.stereotype.Service;

/**
 * Pay and cancel, as Workflow Updates: the workflow decides once between payment, cancel and the
 * deadline. A refused update, or one sent to a finished workflow, is answered from the purchase's
 * current state, so repeating a successful call (same payment id, cancel twice) answers 200.
 */
@Service
class PurchaseCommands {

    private final PurchaseLookup lookup;

    PurchaseCommands(PurchaseLookup lookup) {
        this.lookup = lookup;
    }

    /** Idempotent by payment id (the workflow's validator and UNIQUE(payment_id) in MySQL). */
    PurchaseResponse pay(PurchaseId id, String paymentId) {
        return send(
                id,
                () -> lookup.workflow(id).pay(new PaymentRequest(paymentId)),
                current -> current.status() == PurchaseStatus.PAID && paymentId.equals(current.paymentId()),
                ApiProblem.PAYMENT_REJECTED);
    }

    /** Idempotent: a cancelled purchase stays cancelled and answers so. */
    PurchaseResponse cancel(PurchaseId id) {
        return send(
                id,
                () -> lookup.workflow(id).cancel(),
                current -> current.status() == PurchaseStatus.CANCELLED,
                ApiProblem.CANCEL_REJECTED);
    }

    private PurchaseResponse send(
            PurchaseId id, Supplier<PurchaseView> update, Predicate<PurchaseResponse> alreadyDone, ApiProblem refusal) {
        try {
            return PurchaseResponse.of(update.get());
        } catch (WorkflowUpdateException | WorkflowNotFoundException refused) {
            PurchaseResponse current = lookup.find(id).orElseThrow(() -> notFound(id));
            if (alreadyDone.test(current)) {
                return current;
            }
            throw new ProblemException(
                    refusal,
                    "purchase " + id.value() + " is " + current.status(),
                    Map.of("purchaseStatus", current.status().name()));
        }
    }

    static ProblemException notFound(PurchaseId id) {
        return new ProblemException(ApiProblem.PURCHASE_NOT_FOUND, "no purchase " + id.value());
    }
}
