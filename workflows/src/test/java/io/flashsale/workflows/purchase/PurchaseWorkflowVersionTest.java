package io.flashsale.workflows.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.converter.DefaultDataConverter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Both branches of the {@code order-starts-the-deadline} marker: new purchases start the pay
 * deadline once the order is written and void a hold MySQL had no unit for; purchases started
 * before it keep the deadline fixed before the write and release such a hold.
 */
class PurchaseWorkflowVersionTest {

    @Test
    void newPurchasesRecordVersionOneAndStartTheDeadlineOnceTheOrderIsWritten() {
        try (PurchaseTestEnvironment temporal = PurchaseTestEnvironment.start()) {
            PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

            NewOrder order = temporal.orders.written().get(0);
            assertThat(order.payDeadline()).isNull();
            assertThat(order.payTimeoutSeconds()).isEqualTo(PurchaseTestEnvironment.PAY_TIMEOUT_SECONDS);
            assertThat(purchase.status().payDeadline()).isNotNull();
            assertThat(versionMarkers(temporal, purchase))
                    .containsExactly(PurchaseWorkflowImpl.ORDER_STARTS_THE_DEADLINE, PurchaseWorkflowImpl.LOCAL_STEPS);
        }
    }

    @Test
    void purchasesStartedBeforeVersionOneFixTheDeadlineBeforeTheOrderIsWritten() {
        try (PurchaseTestEnvironment temporal = PurchaseTestEnvironment.startBeforeVersionOne()) {
            PurchaseWorkflow purchase = temporal.awaitingPayment("ann");

            NewOrder order = temporal.orders.written().get(0);
            assertThat(order.payDeadline())
                    .isNotNull()
                    .isEqualTo(purchase.status().payDeadline());
            assertThat(order.payTimeoutSeconds()).isZero();
            assertThat(versionMarkers(temporal, purchase)).isEmpty();
            assertThat(temporal.result(purchase).status()).isEqualTo(PurchaseStatus.EXPIRED);
            assertThat(temporal.steps.calls())
                    .containsExactly("confirmReservation", "createOrder", "cancelOrder EXPIRED", "releaseReservation");
        }
    }

    @Test
    void purchasesStartedBeforeVersionOneReleaseAHoldMySqlHadNoUnitFor() {
        try (PurchaseTestEnvironment temporal = PurchaseTestEnvironment.startBeforeVersionOne()) {
            temporal.orders.refuseOrders(PurchaseFailure.SOLD_OUT);

            PurchaseView rejected = temporal.result(temporal.purchase("ann"));

            assertThat(rejected.status()).isEqualTo(PurchaseStatus.REJECTED);
            assertThat(temporal.steps.calls())
                    .containsExactly("confirmReservation", "createOrder", "releaseReservation");
        }
    }

    /** The change ids of the version markers in the purchase's history, in order. */
    private static List<String> versionMarkers(PurchaseTestEnvironment temporal, PurchaseWorkflow purchase) {
        return temporal.history(purchase).getEvents().stream()
                .filter(event -> event.getEventType() == EventType.EVENT_TYPE_MARKER_RECORDED)
                .map(HistoryEvent::getMarkerRecordedEventAttributes)
                .filter(marker -> marker.getMarkerName().equals("Version"))
                .map(marker -> DefaultDataConverter.STANDARD_INSTANCE.fromPayloads(
                        0, Optional.of(marker.getDetailsOrThrow("changeId")), String.class, String.class))
                .toList();
    }
}
