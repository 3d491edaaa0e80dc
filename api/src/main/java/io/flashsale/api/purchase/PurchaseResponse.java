package io.flashsale.api.purchase;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.flashsale.stores.sale.Price;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import java.time.Instant;
import java.util.Map;

/**
 * A purchase as the buyer sees it, with links to what can be done next.
 *
 * @param price what the unit costs (the sale's price); shown on status reads, absent in the answer
 *     to the purchase request itself (that path never reads MySQL)
 */
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
        Price price,
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
                null,
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
                null,
                links(id.value()));
    }

    PurchaseResponse withPrice(Price unitPrice) {
        return new PurchaseResponse(
                purchaseId, saleId, userId, status, orderId, payDeadline, paymentId, reason, unitPrice, links);
    }

    private static Map<String, String> links(String purchaseId) {
        String self = "/api/purchases/" + purchaseId;
        return Map.of("self", self, "payment", self + "/payment", "cancel", self + "/cancel");
    }
}
