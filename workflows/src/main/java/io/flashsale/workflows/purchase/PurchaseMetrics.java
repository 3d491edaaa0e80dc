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

    /**
     * Time from the buyer's admission (the 202) to the order written, the purchase PENDING_PAYMENT:
     * what the buyer waits for after the answer. Recorded once per purchase, when the admission
     * time is known.
     */
    public static final String ADMISSION_TO_ORDER = "flashsale_admission_to_order";

    private PurchaseMetrics() {}
}
