package io.flashsale.workflows.purchase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.temporal.client.WorkflowFailedException;
import io.temporal.failure.ApplicationFailure;
import org.junit.jupiter.api.Test;

/** A purchase Redis or MySQL has no unit for ends REJECTED, with the hold undone as it must be. */
class PurchaseWorkflowRejectionTest extends PurchaseWorkflowTest {

    @Test
    void rejectsAndReleasesTheHoldWhenRedisHasNoUnit() {
        temporal.reservations.noUnitLeft();

        PurchaseWorkflow purchase = temporal.purchase("ann");
        PurchaseView rejected = temporal.result(purchase);

        assertThat(rejected.status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(rejected.reason()).isEqualTo("no unit left in Redis");
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "releaseReservation");
        assertThat(temporal.statusAttribute(purchase)).isEqualTo("REJECTED");
    }

    @Test
    void voidsTheHoldWhenMySqlIsSoldOut() {
        temporal.orders.refuseOrders(PurchaseFailure.SOLD_OUT);

        PurchaseView rejected = temporal.result(temporal.purchase("ann"));

        assertThat(rejected.status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(rejected.reason()).startsWith("MySQL refused the order");
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "voidReservation");
    }

    @Test
    void releasesTheHoldWhenTheBuyerAlreadyHasAnOrder() {
        temporal.orders.refuseOrders(PurchaseFailure.ALREADY_ORDERED);

        PurchaseView rejected = temporal.result(temporal.purchase("ann"));

        assertThat(rejected.status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "releaseReservation");
    }

    @Test
    void releasesTheHoldWhenMySqlRefusesTheOrderForGood() {
        temporal.orders.refuseOrders(PurchaseFailure.ORDER_INVALID);

        PurchaseView rejected = temporal.result(temporal.purchase("ann"));

        assertThat(rejected.status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder", "releaseReservation");
    }

    @Test
    void undoesNothingWhenThePurchasesOrderEndedInAnEarlierRun() {
        temporal.orders.refuseOrders(PurchaseFailure.ORDER_ENDED);

        PurchaseView rejected = temporal.result(temporal.purchase("ann"));

        assertThat(rejected.status()).isEqualTo(PurchaseStatus.REJECTED);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder");
    }

    @Test
    void failsThePurchaseWithoutUndoingTheHoldOnARefusalItDoesNotKnow() {
        temporal.orders.refuseOrders(ApplicationFailure.newNonRetryableFailure("refused by the test", "UNKNOWN"));

        Throwable failure = catchThrowable(() -> temporal.result(temporal.purchase("ann")));

        assertThat(failure).isInstanceOf(WorkflowFailedException.class);
        assertThat(temporal.steps.calls()).containsExactly("confirmReservation", "createOrder");
    }
}
