package io.flashsale.activities.reservation;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flashsale.activities.testing.ActivitiesIntegrationTest;
import io.flashsale.stores.admission.AdmissionOutcome;
import io.flashsale.stores.admission.HoldState;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.ReservationActivities;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class ReservationActivitiesIT extends ActivitiesIntegrationTest {

    @Autowired
    ReservationActivities reservationActivities;

    @Test
    void confirmsAHeldReservationWithoutTakingAnotherUnit() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = admit(gate, sale.id(), "u1", "k").purchaseId();

        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isTrue();
        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isTrue();
        assertThat(stock.stock(sale.id())).hasValue(2);
    }

    @Test
    void releasingTwiceReturnsExactlyOneUnit() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = admit(gate, sale.id(), "u1", "k").purchaseId();

        boolean first = reservationActivities.releaseReservation(sale.id(), purchaseId);
        boolean second = reservationActivities.releaseReservation(sale.id(), purchaseId);

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(stock.stock(sale.id())).hasValue(3);
        assertThat(gate.holdState(sale.id(), purchaseId)).hasValue(HoldState.RELEASED);
    }

    @Test
    void doesNotConfirmAReleasedReservation() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = admit(gate, sale.id(), "u1", "k").purchaseId();
        reservationActivities.releaseReservation(sale.id(), purchaseId);

        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isFalse();
        assertThat(stock.stock(sale.id())).hasValue(3);
    }

    @Test
    void reservesAgainWhenRedisLostTheHoldAndStockRemains() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = admit(gate, sale.id(), "u1", "k").purchaseId();
        redis.opsForHash().delete(keys.sale(sale.id()).holds(), purchaseId);
        redis.opsForHash().delete(keys.sale(sale.id()).buyers(), "u1");

        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isTrue();
        assertThat(stock.stock(sale.id())).hasValue(1);
        assertThat(gate.holdState(sale.id(), purchaseId)).hasValue(HoldState.HELD);
        assertThat(admit(gate, sale.id(), "u1", "other").outcome()).isEqualTo(AdmissionOutcome.ALREADY_PURCHASED);
    }

    @Test
    void failsRetryablyWhenRedisLostTheHoldAndTheStockKey() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = admit(gate, sale.id(), "u1", "k").purchaseId();
        redis.delete(List.of(keys.sale(sale.id()).holds(), keys.sale(sale.id()).stock()));

        Throwable failure = catchThrowable(() -> reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"));

        assertThat(failure).isInstanceOf(IllegalStateException.class).hasMessageContaining("no stock");
        assertThat(stock.stock(sale.id())).isEmpty();
    }

    @Test
    void voidsAHeldReservationOnceWithoutGivingTheUnitBackAndForgetsTheBuyer() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = admit(gate, sale.id(), "u1", "k").purchaseId();

        boolean first = reservationActivities.voidReservation(sale.id(), purchaseId, "u1");
        boolean second = reservationActivities.voidReservation(sale.id(), purchaseId, "u1");
        boolean release = reservationActivities.releaseReservation(sale.id(), purchaseId);

        assertThat(List.of(first, second, release)).containsExactly(true, false, false);
        assertThat(gate.holdState(sale.id(), purchaseId)).hasValue(HoldState.VOID);
        assertThat(stock.stock(sale.id())).hasValue(2);
        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isFalse();
        assertThat(admit(gate, sale.id(), "u1", "k").outcome()).isEqualTo(AdmissionOutcome.ADMITTED);
    }

    @Test
    void refusesWhenRedisLostTheHoldAndNoStockRemains() {
        Sale sale = loaded(TestSales.open(1));
        String purchaseId = admit(gate, sale.id(), "u1", "k").purchaseId();
        redis.opsForHash().delete(keys.sale(sale.id()).holds(), purchaseId);

        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isFalse();
        assertThat(stock.stock(sale.id())).hasValue(0);
        assertThat(gate.holdState(sale.id(), purchaseId)).isEmpty();
    }
}
