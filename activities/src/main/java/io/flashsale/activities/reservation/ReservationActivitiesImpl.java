package io.flashsale.activities.reservation;

import io.flashsale.stores.admission.Reservations;
import io.flashsale.workflows.TaskQueues;
import io.flashsale.workflows.purchase.ReservationActivities;
import io.temporal.spring.boot.ActivityImpl;

/**
 * The purchase's Redis hold, as activities: each is idempotent by purchase id ({@link
 * Reservations}); Redis errors propagate, so Temporal retries them.
 */
@ActivityImpl(taskQueues = TaskQueues.PURCHASE)
public class ReservationActivitiesImpl implements ReservationActivities {

    private final Reservations reservations;

    public ReservationActivitiesImpl(Reservations reservations) {
        this.reservations = reservations;
    }

    @Override
    public boolean confirmReservation(String saleId, String purchaseId, String userId) {
        return reservations.confirm(saleId, purchaseId, userId);
    }

    @Override
    public boolean releaseReservation(String saleId, String purchaseId) {
        return reservations.release(saleId, purchaseId);
    }

    @Override
    public boolean voidReservation(String saleId, String purchaseId, String userId) {
        return reservations.voidHold(saleId, purchaseId, userId);
    }
}
