package io.flashsale.workflows.purchase;

import java.util.concurrent.atomic.AtomicInteger;

/** The Redis hold, faked: a unit is held unless a test says Redis has none; calls are recorded. */
final class FakeReservations implements ReservationActivities {

    private final Steps steps;
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private volatile boolean unitHeld = true;

    FakeReservations(Steps steps) {
        this.steps = steps;
    }

    void noUnitLeft() {
        unitHeld = false;
    }

    /** The next {@code times} confirmations fail as a Redis timeout would (Temporal retries them). */
    void failConfirmations(int times) {
        failuresLeft.set(times);
    }

    @Override
    public boolean confirmReservation(String saleId, String purchaseId, String userId) {
        steps.record("confirmReservation");
        if (failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
            throw new IllegalStateException("Redis command timed out");
        }
        return unitHeld;
    }

    @Override
    public boolean releaseReservation(String saleId, String purchaseId) {
        steps.record("releaseReservation");
        return true;
    }

    @Override
    public boolean voidReservation(String saleId, String purchaseId, String userId) {
        steps.record("voidReservation");
        return true;
    }
}
