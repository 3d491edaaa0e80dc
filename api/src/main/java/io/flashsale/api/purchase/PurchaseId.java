package io.flashsale.api.purchase;

import io.flashsale.api.sale.SaleIds;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.util.Optional;

/**
 * A parsed purchase id {@code purchase-{saleId}-{userId}}. Sale ids hold no hyphen, so the split is
 * unambiguous and ownership can be checked before any lookup.
 */
record PurchaseId(String value, String saleId, String userId) {

    private static final String PREFIX = "purchase-";

    static PurchaseId of(String saleId, String userId) {
        return new PurchaseId(PurchaseRequest.purchaseId(saleId, userId), saleId, userId);
    }

    static Optional<PurchaseId> parse(String value) {
        if (value == null || !value.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String rest = value.substring(PREFIX.length());
        int dash = rest.indexOf('-');
        if (dash < 0 || dash == rest.length() - 1) {
            return Optional.empty();
        }
        return SaleIds.requireValid(rest.substring(0, dash))
                .map(saleId -> new PurchaseId(value, saleId, rest.substring(dash + 1)));
    }

    boolean isOwnedBy(String userId) {
        return this.userId.equals(userId);
    }
}
