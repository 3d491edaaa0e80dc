package io.flashsale.api.purchase;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import java.time.Instant;
import java.util.Map;

/** A purchase as the buyer sees it, with links to what can be done next. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PurchaseResponse(
        String purchaseId,
        String saleId,
        String userId,
        PurchaseStatus status,
        Long orderId,
        Instant payDeadline,
        String paymentId,
        String reason,
        Map<String, String> links) {

    static PurchaseResponse of(PurchaseView view) {
        return new PurchaseResponse(
                view.purchaseId(),
                view.saleId(),
                view.userId(),
                view.status(),
                view.orderId(),
                view.payDeadline(),
                view.paymentId(),
                view.reason(),
                links(view.purchaseId()));
    }

    static PurchaseResponse reserved(PurchaseId id) {
        return new PurchaseResponse(
                id.value(),
                id.saleId(),
                id.userId(),
                PurchaseStatus.RESERVED,
                null,
                null,
                null,
                null,
                links(id.value()));
    }

    private static Map<String, String> links(String purchaseId) {
        String self = "/api/purchases/" + purchaseId;
        return Map.of("self", self, "payment", self + "/payment", "cancel", self + "/cancel");
    }
}
