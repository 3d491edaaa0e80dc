package io.flashsale.worker.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.temporal.activity.Activity;
import io.temporal.api.enums.v1.EventType;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A MySQL outage longer than a local step's attempts in the worker: every local attempt of
 * {@code createOrder} commits and then fails (the answer lost), so the workflow hands the step to an
 * activity task, which finds the order written. Invariant I5 across the two kinds of attempt: one
 * order, the same id from every attempt.
 */
class HandedOffStepIT extends WorkflowIntegrationTest {

    private final List<Long> orderIds = new CopyOnWriteArrayList<>();
    private final List<Boolean> local = new CopyOnWriteArrayList<>();

    @Override
    protected TestWorkflowEnvironment startTemporal() {
        return TemporalTestEnvironment.start(reservations, new LosingLocalAnswers(orders));
    }

    @Test
    void anOrderWhoseLocalAttemptsAllFailedIsWrittenOnceByTheActivityTask() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "erin");
        assertThat(new PurchaseStarter(env.getWorkflowClient()).start(request)).isTrue();

        awaitPayment(request).pay(new PaymentRequest("pay-erin"));

        assertThat(result(request).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(local).containsExactly(true, true, true, false);
        assertThat(orderIds).hasSize(4).containsOnly(orderIds.get(0));
        assertThat(fixture.orders(sale)).isEqualTo(1);
        assertThat(fixture.orderStatus(request)).contains("PAID");
        WorkflowExecutionHistory history = env.getWorkflowClient().fetchHistory(request.purchaseId());
        assertThat(history.getEvents())
                .filteredOn(event -> event.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
                .extracting(event -> event.getActivityTaskScheduledEventAttributes()
                        .getActivityType()
                        .getName())
                .containsExactly("CreateOrder", "MarkPaid");
        keep(request, "order-handed-off-paid");
    }

    /** The real orders; each local attempt of {@code createOrder} commits and then fails. */
    private final class LosingLocalAnswers implements OrderActivities {

        private final OrderActivities real;

        LosingLocalAnswers(OrderActivities real) {
            this.real = real;
        }

        @Override
        public long createOrder(NewOrder order) {
            long orderId = real.createOrder(order);
            orderIds.add(orderId);
            boolean isLocal = Activity.getExecutionContext().getInfo().isLocal();
            local.add(isLocal);
            if (isLocal) {
                throw new IllegalStateException("order " + orderId + " committed, then the answer was lost");
            }
            return orderId;
        }

        @Override
        public void markPaid(String purchaseId, String paymentId) {
            real.markPaid(purchaseId, paymentId);
        }

        @Override
        public boolean cancelOrder(String purchaseId, PurchaseStatus outcome) {
            return real.cancelOrder(purchaseId, outcome);
        }
    }
}
