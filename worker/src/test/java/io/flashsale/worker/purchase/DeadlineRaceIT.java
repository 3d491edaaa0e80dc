package io.flashsale.worker.purchase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.flashsale.stores.admission.HoldState;
import io.flashsale.workflows.purchase.PurchaseFailure;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import io.temporal.client.WorkflowUpdateHandle;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Pay and cancel meeting the pay deadline, each branch reached on purpose: time skips to the
 * deadline, or to just before it with the step the Update started held until the deadline's timer
 * fired. The workflow decides once; the unit comes back at most once.
 */
class DeadlineRaceIT extends HeldStepsTest {

    /**
     * How long before the deadline the Update is sent: while a step is held Temporal's clock runs
     * in real time, and the Update must be accepted before it reaches the deadline.
     */
    private static final Duration JUST_BEFORE = Duration.ofSeconds(2);

    @Test
    void paymentJustBeforeTheDeadlineIsPaidThoughTheDeadlinePassesWhileItIsRecorded() throws Exception {
        PurchaseRequest request = startAndAwaitPayment("dora");
        env.sleep(untilDeadline(request).minus(JUST_BEFORE));
        mysql.payments.close();
        WorkflowUpdateHandle<PurchaseView> payment = updates(request).pay("pay-dora");
        mysql.payments.arrived();

        await().atMost(JUST_BEFORE.multipliedBy(5)).until(() -> deadlinePassed(request));
        mysql.payments.open();

        assertThat(payment.getResult().status()).isEqualTo(PurchaseStatus.PAID);
        PurchaseView outcome = result(request);
        assertThat(outcome.status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(outcome.paymentId()).isEqualTo("pay-dora");
        assertThat(fixture.orderStatus(request)).contains("PAID");
        assertThat(fixture.available(sale)).isEqualTo(2);
        assertThat(fixture.redisStock(sale)).isEqualTo(2);
        assertThat(fixture.hold(request)).contains(HoldState.HELD);
        keep(request, "paid-as-the-deadline-passes");
    }

    @Test
    void paymentExactlyAtTheDeadlineIsRefusedAndTheUnitComesBackOnce() {
        PurchaseRequest request = startAndAwaitPayment("dave");
        mysql.cancels.close();
        env.sleep(untilDeadline(request));

        assertThat(updates(request).payRefusal("pay-dave")).isEqualTo(PurchaseFailure.PAYMENT_REJECTED);

        assertThat(running(request)).isTrue();
        mysql.cancels.open();
        PurchaseView outcome = result(request);
        assertThat(outcome.status()).isEqualTo(PurchaseStatus.EXPIRED);
        assertThat(outcome.paymentId()).isNull();
        assertThat(fixture.orderStatus(request)).contains("EXPIRED");
        assertThat(fixture.available(sale)).as("unit back in MySQL once").isEqualTo(3);
        assertThat(fixture.redisStock(sale)).as("unit back in Redis once").isEqualTo(3);
        assertThat(fixture.hold(request)).contains(HoldState.RELEASED);
    }

    @Test
    void cancelOnceTheDeadlinePassedIsRefusedWhileTheUnitIsGivenBack() {
        PurchaseRequest request = startAndAwaitPayment("carl");
        mysql.cancels.close();
        env.sleep(untilDeadline(request));
        mysql.cancels.arrived();

        assertThat(updates(request).cancelRefusal()).isEqualTo(PurchaseFailure.CANCEL_REJECTED);

        mysql.cancels.open();
        assertThat(result(request).status()).isEqualTo(PurchaseStatus.EXPIRED);
        assertThat(fixture.orderStatus(request)).contains("EXPIRED");
        assertThat(fixture.available(sale)).isEqualTo(3);
        assertThat(fixture.redisStock(sale)).isEqualTo(3);
    }

    @Test
    void cancelJustBeforeTheDeadlineCancelsThoughTheDeadlinePassesWhileTheUnitIsGivenBack() throws Exception {
        PurchaseRequest request = startAndAwaitPayment("cleo");
        env.sleep(untilDeadline(request).minus(JUST_BEFORE));
        mysql.cancels.close();
        WorkflowUpdateHandle<PurchaseView> cancel = updates(request).cancel();
        mysql.cancels.arrived();

        await().atMost(JUST_BEFORE.multipliedBy(5)).until(() -> deadlinePassed(request));
        mysql.cancels.open();

        assertThat(cancel.getResult().status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(result(request).status()).isEqualTo(PurchaseStatus.CANCELLED);
        assertThat(fixture.orderStatus(request)).contains("CANCELLED");
        assertThat(fixture.available(sale)).as("unit back in MySQL once").isEqualTo(3);
        assertThat(fixture.redisStock(sale)).as("unit back in Redis once").isEqualTo(3);
        assertThat(fixture.hold(request)).contains(HoldState.RELEASED);
        keep(request, "cancelled-as-the-deadline-passes");
    }
}
