package io.flashsale.workflows.purchase;

/**
 * Input of one purchase workflow.
 *
 * @param purchaseId also the workflow id: {@code purchase-{saleId}-{userId}}
 * @param payTimeoutSeconds how long the buyer has to pay once the order exists
 */
public record PurchaseRequest(String purchaseId, String saleId, String userId, long payTimeoutSeconds) {

    public static PurchaseRequest of(String saleId, String userId, long payTimeoutSeconds) {
        return new PurchaseRequest(purchaseId(saleId, userId), saleId, userId, payTimeoutSeconds);
    }

    /** One purchase per user per sale, ever: the id is derived from both. */
    public static String purchaseId(String saleId, String userId) {
        return "purchase-" + saleId + "-" + userId;
    }
}
