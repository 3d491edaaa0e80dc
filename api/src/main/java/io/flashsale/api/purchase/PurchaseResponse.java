package io.flashsale.api.purchase;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.flashsale.stores.admission.HoldState;
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
 * @param hold the purchase's Redis hold, in the answer to a repeated purchase request only: that
 *     answer comes from Redis alone; {@code links.self} gives the purchase's current status
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
        HoldState hold,
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
                null,
                links(view.purchaseId()));
    }

    static PurchaseResponse reserved(PurchaseId id) {
        return fromRedis(id, PurchaseStatus.RESERVED, null);
    }

    /**
     * The answer to a repeat of the purchase request, from the hold admit.lua read: RESERVED while a
     * unit is held for the buyer (whatever the workflow did since), no status otherwise (released or
     * voided: {@code self} tells how the purchase ended).
     */
    static PurchaseResponse repeated(PurchaseId id, HoldState hold) {
        return fromRedis(id, hold == HoldState.HELD ? PurchaseStatus.RESERVED : null, hold);
    }

    private static PurchaseResponse fromRedis(PurchaseId id, PurchaseStatus status, HoldState hold) {
        return new PurchaseResponse(
                id.value(), id.saleId(), id.userId(), status, null, null, null, null, null, hold, links(id.value()));
    }

    PurchaseResponse withPrice(Price unitPrice) {
        return new PurchaseResponse(
                purchaseId, saleId, userId, status, orderId, payDeadline, paymentId, reason, unitPrice, hold, links);
    }

    private static Map<String, String> links(String purchaseId) {
        String self = "/api/purchases/" + purchaseId;
        return Map.of("self", self, "payment", self + "/payment", "cancel", self + "/cancel");
    }
}
