package io.flashsale.activities.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.activities.sale.Sale;
import io.flashsale.activities.testing.ActivitiesIntegrationTest;
import io.flashsale.activities.testing.TestSales;
import io.flashsale.workflows.purchase.ReservationActivities;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class ReservationActivitiesIT extends ActivitiesIntegrationTest {

    @Autowired
    ReservationActivities reservationActivities;

    @Test
    void confirmsAHeldReservationWithoutTakingAnotherUnit() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = gate.admit(sale.id(), "u1", "k").purchaseId();

        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isTrue();
        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isTrue();
        assertThat(stock.stock(sale.id())).hasValue(2);
    }

    @Test
    void releasingTwiceReturnsExactlyOneUnit() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = gate.admit(sale.id(), "u1", "k").purchaseId();

        boolean first = reservationActivities.releaseReservation(sale.id(), purchaseId);
        boolean second = reservationActivities.releaseReservation(sale.id(), purchaseId);

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(stock.stock(sale.id())).hasValue(3);
        assertThat(gate.holdState(sale.id(), purchaseId)).hasValue("RELEASED");
    }

    @Test
    void doesNotConfirmAReleasedReservation() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = gate.admit(sale.id(), "u1", "k").purchaseId();
        reservationActivities.releaseReservation(sale.id(), purchaseId);

        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isFalse();
        assertThat(stock.stock(sale.id())).hasValue(3);
    }

    @Test
    void reservesAgainWhenRedisLostTheHoldAndStockRemains() {
        Sale sale = loaded(TestSales.open(3));
        String purchaseId = gate.admit(sale.id(), "u1", "k").purchaseId();
        redis.opsForHash().delete(keys.sale(sale.id()).holds(), purchaseId);
        redis.opsForHash().delete(keys.sale(sale.id()).buyers(), "u1");

        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isTrue();
        assertThat(stock.stock(sale.id())).hasValue(1);
        assertThat(gate.holdState(sale.id(), purchaseId)).hasValue("HELD");
        assertThat(gate.admit(sale.id(), "u1", "other").outcome()).isEqualTo(AdmissionOutcome.ALREADY_PURCHASED);
    }

    @Test
    void refusesWhenRedisLostTheHoldAndNoStockRemains() {
        Sale sale = loaded(TestSales.open(1));
        String purchaseId = gate.admit(sale.id(), "u1", "k").purchaseId();
        redis.opsForHash().delete(keys.sale(sale.id()).holds(), purchaseId);

        assertThat(reservationActivities.confirmReservation(sale.id(), purchaseId, "u1"))
                .isFalse();
        assertThat(stock.stock(sale.id())).hasValue(0);
        assertThat(gate.holdState(sale.id(), purchaseId)).isEmpty();
    }

    @Test
    void refusesWhenRedisLostTheWholeSale() {
        String saleId = TestSales.newId();

        assertThat(reservationActivities.confirmReservation(saleId, "purchase-" + saleId + "-u1", "u1"))
                .isFalse();
        assertThat(stock.stock(saleId)).isEmpty();
    }
}
