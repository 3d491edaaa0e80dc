package io.flashsale.workflows.purchase;

/**
 * Business metrics the workflow emits through Temporal's metrics scope (exported by the worker
 * with the SDK's own metrics, e.g. on {@code /actuator/prometheus}).
 */
public final class PurchaseMetrics {

    /** Status changes of purchases, tagged {@code status}: PAID, EXPIRED, CANCELLED, REJECTED, ... */
    public static final String TRANSITIONS = "flashsale_purchase_transitions";

    /** Compensation steps run, once per purchase, tagged {@code step}: cancel_order, release_reservation. */
    public static final String COMPENSATIONS = "flashsale_compensations";

    private PurchaseMetrics() {}
}
