package io.flashsale.workflows.purchase;

import io.flashsale.workflows.PurchaseSearchAttributes;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.Map;

/**
 * The purchase as the workflow knows it. Every status change is published to the Web UI: the
 * PurchaseStatus search attribute and the current details.
 */
final class PurchaseState {

    private PurchaseRequest request;
    private PurchaseStatus status = PurchaseStatus.RESERVED;
    private PurchaseStatus pendingOutcome = PurchaseStatus.REJECTED;
    private Long orderId;
    private Instant payDeadline;
    private String paymentId;
    private String reason;

    void start(PurchaseRequest request) {
        this.request = request;
        publish();
    }

    void awaitPayment(long orderId, Instant payDeadline) {
        this.orderId = orderId;
        this.payDeadline = payDeadline;
        transition(PurchaseStatus.PENDING_PAYMENT);
    }

    void paid(String paymentId) {
        this.paymentId = paymentId;
        transition(PurchaseStatus.PAID);
    }

    /** Records the final status the compensation is heading for, before it runs. */
    void endAs(PurchaseStatus outcome, String reason) {
        this.pendingOutcome = outcome;
        this.reason = reason;
    }

    void transition(PurchaseStatus next) {
        status = next;
        Workflow.upsertTypedSearchAttributes(PurchaseSearchAttributes.STATUS.valueSet(next.name()));
        publish();
        // the workflow metrics scope does not emit during replay: each transition counts once
        Workflow.getMetricsScope()
                .tagged(Map.of("status", next.name()))
                .counter(PurchaseMetrics.TRANSITIONS)
                .inc(1);
    }

    PurchaseStatus status() {
        return status;
    }

    PurchaseStatus pendingOutcome() {
        return pendingOutcome;
    }

    String purchaseId() {
        return request.purchaseId();
    }

    String saleId() {
        return request.saleId();
    }

    String userId() {
        return request.userId();
    }

    String paymentId() {
        return paymentId;
    }

    Instant payDeadline() {
        return payDeadline;
    }

    PurchaseView view() {
        if (request == null) {
            return null;
        }
        return new PurchaseView(
                request.purchaseId(),
                request.saleId(),
                request.userId(),
                status,
                orderId,
                payDeadline,
                paymentId,
                reason);
    }

    private void publish() {
        StringBuilder details = new StringBuilder()
                .append("**Status:** ")
                .append(status)
                .append("\n\n**Sale:** ")
                .append(request.saleId())
                .append(" **User:** ")
                .append(request.userId());
        if (orderId != null) {
            details.append("\n\n**Order:** ").append(orderId);
        }
        if (payDeadline != null) {
            details.append("\n\n**Pay deadline:** ").append(payDeadline);
        }
        if (paymentId != null) {
            details.append("\n\n**Payment:** ").append(paymentId);
        }
        if (reason != null) {
            details.append("\n\n**Reason:** ").append(reason);
        }
        Workflow.setCurrentDetails(details.toString());
    }
}
