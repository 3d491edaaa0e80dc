package io.flashsale.workflows.purchase;

import io.temporal.activity.ActivityInterface;

/** The Redis side of a purchase: the hold the admission script placed. */
@ActivityInterface
public interface ReservationActivities {

    /**
     * Makes sure the purchase holds a unit in Redis. Idempotent by purchase id: a held unit is
     * confirmed as is; a hold Redis lost is taken again when stock remains.
     *
     * @return true when the unit is held, false when Redis has no unit for it
     */
    boolean confirmReservation(String saleId, String purchaseId, String userId);

    /**
     * Gives the held unit back. Only a HELD reservation becomes RELEASED and returns its unit; any
     * later call is a no-op.
     *
     * @return true when this call returned the unit
     */
    boolean releaseReservation(String saleId, String purchaseId);

    /**
     * Voids the hold of a unit MySQL never had (it refused the order as sold out): only a HELD hold
     * becomes VOID, the Redis stock stays as it is, and the buyer is forgotten so they may try
     * again. Any later call is a no-op.
     *
     * @return true when this call voided the hold
     */
    boolean voidReservation(String saleId, String purchaseId, String userId);
}
