package io.flashsale.workflows.purchase;

/**
 * Input of one purchase workflow.
 *
 * @param purchaseId also the workflow id: {@code purchase-{saleId}-{userId}}
 * @param payTimeoutSeconds how long the buyer has to pay once the order exists
 * @param admittedAtMillis when Redis admitted the buyer (the time of its outbox entry), for the
 *     admission-to-order timer; 0 when unknown (inputs recorded before it existed)
 */
public record PurchaseRequest(
        String purchaseId, String saleId, String userId, long payTimeoutSeconds, long admittedAtMillis) {

    /** A request whose admission time is unknown. */
    public PurchaseRequest(String purchaseId, String saleId, String userId, long payTimeoutSeconds) {
        this(purchaseId, saleId, userId, payTimeoutSeconds, 0);
    }

    public static PurchaseRequest of(String saleId, String userId, long payTimeoutSeconds) {
        return new PurchaseRequest(purchaseId(saleId, userId), saleId, userId, payTimeoutSeconds);
    }

    /** One purchase per user per sale, ever: the id is derived from both. */
    public static String purchaseId(String saleId, String userId) {
        return "purchase-" + saleId + "-" + userId;
    }
}
