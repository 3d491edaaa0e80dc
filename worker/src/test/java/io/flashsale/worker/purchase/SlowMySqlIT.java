package io.flashsale.worker.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.RateLimits;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import io.flashsale.workflows.purchase.PurchaseWorkflow;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** MySQL that is down for a while, or slow to answer: the purchase keeps its promises. */
class SlowMySqlIT extends WorkflowIntegrationTest {

    SlowOrders mysql;

    @Override
    protected TestWorkflowEnvironment startTemporal() {
        mysql = new SlowOrders(orders);
        return TemporalTestEnvironment.start(reservations, mysql);
    }

    /**
     * createOrder fails for longer than the pay timeout (MySQL down): once the order is written the
     * buyer still has the whole pay timeout, not a deadline that passed while MySQL was down.
     */
    @Test
    void buyerCanPayAfterAMySqlOutageBecauseTheDeadlineStartsWithTheOrder() {
        Sale quick = fixture.create(new Sale(
                TestSales.newId(), "quick", 3, 3, null, null, Duration.ofSeconds(3), RateLimits.NONE, TestSales.PRICE));
        mysql.failingCreateOrders.set(5);
        PurchaseRequest request = fixture.admit(quick, "alice");

        new PurchaseStarter(env.getWorkflowClient()).start(request);
        PurchaseWorkflow workflow = awaitPayment(request);
        Instant orderWritten = Instant.ofEpochMilli(env.currentTimeMillis());
        PurchaseView paid = workflow.pay(new PaymentRequest("pay-alice"));

        assertThat(mysql.failingCreateOrders).hasValue(0);
        assertThat(workflow.status().payDeadline()).isAfter(orderWritten.plusSeconds(2));
        assertThat(paid.status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(fixture.orderStatus(request)).contains("PAID");
    }

    /** The payment service sends the same payment again while the first is being marked paid. */
    @Test
    void samePaymentAgainWhileTheFirstIsInFlightAnswersPaid() throws Exception {
        PurchaseRequest request = fixture.admit(sale, "bob");
        new PurchaseStarter(env.getWorkflowClient()).start(request);
        PurchaseWorkflow workflow = awaitPayment(request);
        mysql.holdPayments();

        CompletableFuture<PurchaseView> first =
                CompletableFuture.supplyAsync(() -> workflow.pay(new PaymentRequest("pay-bob")));
        mysql.awaitPaymentStarted();
        // returns once the workflow accepted (or refused) it: while the first is held in markPaid
        WorkflowUpdateHandle<PurchaseView> second =
                Updates.of(env.getWorkflowClient(), request).pay("pay-bob");
        mysql.releasePayments();

        assertThat(first.get(20, TimeUnit.SECONDS).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(second.getResult(20, TimeUnit.SECONDS).status()).isEqualTo(PurchaseStatus.PAID);
        assertThat(mysql.payments).hasValue(1);
        assertThat(fixture.orderStatus(request)).contains("PAID");
        assertThat(fixture.available(sale)).isEqualTo(2);
    }

    /** The real order activities behind a MySQL that fails createOrder a while, or holds markPaid. */
    static final class SlowOrders implements OrderActivities {

        private final OrderActivities real;
        final AtomicInteger failingCreateOrders = new AtomicInteger();
        final AtomicInteger payments = new AtomicInteger();
        private final CountDownLatch paymentStarted = new CountDownLatch(1);
        private volatile CountDownLatch paymentsHeld = new CountDownLatch(0);

        SlowOrders(OrderActivities real) {
            this.real = real;
        }

        @Override
        public long createOrder(NewOrder order) {
            if (failingCreateOrders.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                throw new IllegalStateException("MySQL is down");
            }
            return real.createOrder(order);
        }

        @Override
        public void markPaid(String purchaseId, String paymentId) {
            payments.incrementAndGet();
            paymentStarted.countDown();
            await(paymentsHeld);
            real.markPaid(purchaseId, paymentId);
        }

        @Override
        public boolean cancelOrder(String purchaseId, PurchaseStatus outcome) {
            return real.cancelOrder(purchaseId, outcome);
        }

        void holdPayments() {
            paymentsHeld = new CountDownLatch(1);
        }

        void releasePayments() {
            paymentsHeld.countDown();
        }

        void awaitPaymentStarted() {
            await(paymentStarted);
        }

        private static void await(CountDownLatch latch) {
            try {
                assertThat(latch.await(9, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
