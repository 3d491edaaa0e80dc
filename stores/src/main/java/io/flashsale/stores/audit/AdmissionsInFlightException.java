package io.flashsale.stores.audit;

/**
 * The repair refused: the sale's admission stream holds entries whose workflow start is not yet
 * confirmed (or an admission arrived while the repair gathered its facts). The relay drains them
 * within moments; run the repair again.
 */
public class AdmissionsInFlightException extends RuntimeException {

    public AdmissionsInFlightException(String saleId) {
        super("admissions of sale " + saleId + " are in flight; repair again once the relay drained them");
    }
}
