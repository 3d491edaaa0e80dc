package io.flashsale.activities.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flashsale.activities.testing.ActivitiesIntegrationTest;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleCounts;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.testing.Race;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PurchaseFailure;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.temporal.failure.ApplicationFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class OrderActivitiesIT extends ActivitiesIntegrationTest {

    @Autowired
    OrderActivities orderActivities;

    @Autowired
    SaleRepository sales;

    @Test
    void neverOversellsWhenFiftyBuyersRaceForTenUnits() throws InterruptedException {
        Sale sale = inserted(TestSales.open(10));
        List<Callable<Long>> calls = new ArrayList<>();
        for (int user = 0; user < 50; user++) {
            NewOrder order = order(sale, "u" + user);
            calls.add(() -> orderActivities.createOrder(order));
        }

        List<Race.Outcome<Long>> outcomes = Race.run(calls);

        assertThat(outcomes.stream().filter(o -> o.failure() == null)).hasSize(10);
        assertThat(outcomes.stream().filter(o -> o.failure() != null))
                .hasSize(40)
                .allSatisfy(o -> assertThat(PurchaseFailure.SOLD_OUT.matches(o.failure()))
                        .as("%s", o.failure())
                        .isTrue());
        assertThat(available(sale)).isZero();
        assertThat(sales.counts(sale.id())).isEqualTo(new SaleCounts(10, 0, 0, 0));
    }

    @Test
    void returnsTheSameOrderWhenThePurchaseRetries() {
        Sale sale = inserted(TestSales.open(5));
        NewOrder order = order(sale, "u1");

        long first = orderActivities.createOrder(order);
        long retry = orderActivities.createOrder(order);

        assertThat(retry).isEqualTo(first);
        assertThat(available(sale)).isEqualTo(4);
    }

    /**
     * Two attempts of one createOrder overlap when the first outlives its start-to-close timeout
     * (MySQL hung) and Temporal starts the retry. When the first takes the sale's last unit, the
     * second must find that order, not answer SOLD_OUT for a purchase that has its unit.
     */
    @Test
    void concurrentAttemptsOfOnePurchaseForTheLastUnitAllReturnItsOrder() throws InterruptedException {
        for (int round = 0; round < 20; round++) {
            Sale sale = inserted(TestSales.open(1));
            NewOrder order = order(sale, "u1");
            List<Callable<Long>> attempts = new ArrayList<>();
            for (int attempt = 0; attempt < 8; attempt++) {
                attempts.add(() -> orderActivities.createOrder(order));
            }

            List<Race.Outcome<Long>> outcomes = Race.run(attempts);

            assertThat(outcomes).allSatisfy(o -> assertThat(o.failure()).isNull());
            assertThat(outcomes.stream().map(Race.Outcome::value).distinct()).hasSize(1);
            assertThat(available(sale)).isZero();
            assertThat(sales.counts(sale.id())).isEqualTo(new SaleCounts(1, 0, 0, 0));
        }
    }

    @Test
    void rejectsSecondOrderBySameUser() {
        Sale sale = inserted(TestSales.open(5));
        orderActivities.createOrder(order(sale, "u1"));
        NewOrder other = new NewOrder("purchase-other-u1", sale.id(), "u1", deadline());

        Throwable failure = catchThrowable(() -> orderActivities.createOrder(other));

        assertRefusedFor(PurchaseFailure.ALREADY_ORDERED, failure);
        assertThat(available(sale)).isEqualTo(4);
    }

    @Test
    void marksPaidOnceWhenThePaymentRepeats() {
        Sale sale = inserted(TestSales.open(5));
        NewOrder order = order(sale, "u1");
        orderActivities.createOrder(order);

        orderActivities.markPaid(order.purchaseId(), "pay-" + sale.id());
        orderActivities.markPaid(order.purchaseId(), "pay-" + sale.id());

        assertThat(sales.counts(sale.id())).isEqualTo(new SaleCounts(0, 1, 0, 0));
    }

    @Test
    void rejectsAPaymentIdUsedByAnotherOrder() {
        Sale sale = inserted(TestSales.open(5));
        NewOrder paid = order(sale, "u1");
        NewOrder pending = order(sale, "u2");
        orderActivities.createOrder(paid);
        orderActivities.createOrder(pending);
        orderActivities.markPaid(paid.purchaseId(), "pay-" + sale.id());

        Throwable failure = catchThrowable(() -> orderActivities.markPaid(pending.purchaseId(), "pay-" + sale.id()));

        assertRefusedFor(PurchaseFailure.PAYMENT_ID_IN_USE, failure);
        assertThat(sales.counts(sale.id())).isEqualTo(new SaleCounts(1, 1, 0, 0));
    }

    /** A repeat's decrement rolls back with its refused insert, whatever became of the order. */
    @Test
    void refusesToAdoptAnEndedOrderAndKeepsTheUnitItReturned() {
        Sale sale = inserted(TestSales.open(5));
        NewOrder order = expiredOrder(sale, "u1");

        Throwable failure = catchThrowable(() -> orderActivities.createOrder(order));

        assertRefusedFor(PurchaseFailure.ORDER_ENDED, failure);
        assertThat(available(sale)).isEqualTo(5);
        assertThat(sales.counts(sale.id())).isEqualTo(new SaleCounts(0, 0, 1, 0));
    }

    @Test
    void refusesToPayAnExpiredOrder() {
        Sale sale = inserted(TestSales.open(5));
        NewOrder order = expiredOrder(sale, "u1");

        Throwable failure = catchThrowable(() -> orderActivities.markPaid(order.purchaseId(), "pay-" + sale.id()));

        assertRefusedFor(PurchaseFailure.PAYMENT_REJECTED, failure);
    }

    @Test
    void returnsExactlyOneUnitWhenCancelledTwice() {
        Sale sale = inserted(TestSales.open(5));
        NewOrder order = order(sale, "u1");
        orderActivities.createOrder(order);

        boolean first = orderActivities.cancelOrder(order.purchaseId(), PurchaseStatus.CANCELLED);
        boolean second = orderActivities.cancelOrder(order.purchaseId(), PurchaseStatus.EXPIRED);

        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(available(sale)).isEqualTo(5);
        assertThat(sales.counts(sale.id())).isEqualTo(new SaleCounts(0, 0, 0, 1));
    }

    @Test
    void leavesAPaidOrderAloneOnCancel() {
        Sale sale = inserted(TestSales.open(5));
        NewOrder order = order(sale, "u1");
        orderActivities.createOrder(order);
        orderActivities.markPaid(order.purchaseId(), "pay-" + sale.id());

        boolean cancelled = orderActivities.cancelOrder(order.purchaseId(), PurchaseStatus.EXPIRED);

        assertThat(cancelled).isFalse();
        assertThat(available(sale)).isEqualTo(4);
        assertThat(sales.counts(sale.id())).isEqualTo(new SaleCounts(0, 1, 0, 0));
    }

    @Test
    void returnsNothingForAPurchaseWithoutOrder() {
        Sale sale = inserted(TestSales.open(5));

        assertThat(orderActivities.cancelOrder(PurchaseRequest.purchaseId(sale.id(), "nobody"), PurchaseStatus.EXPIRED))
                .isFalse();
        assertThat(available(sale)).isEqualTo(5);
    }

    private Sale inserted(Sale sale) {
        sales.insertIfAbsent(sale);
        return sale;
    }

    private int available(Sale sale) {
        return sales.find(sale.id()).orElseThrow().available();
    }

    /** The user's order of {@code sale}, written and then expired (its unit returned). */
    private NewOrder expiredOrder(Sale sale, String userId) {
        NewOrder order = order(sale, userId);
        orderActivities.createOrder(order);
        orderActivities.cancelOrder(order.purchaseId(), PurchaseStatus.EXPIRED);
        return order;
    }

    private static NewOrder order(Sale sale, String userId) {
        return new NewOrder(PurchaseRequest.purchaseId(sale.id(), userId), sale.id(), userId, deadline());
    }

    private static Instant deadline() {
        return Instant.now().plusSeconds(60);
    }

    /** A business refusal: {@code reason}, and Temporal must not retry it. */
    private static void assertRefusedFor(PurchaseFailure reason, Throwable failure) {
        assertThat(reason.matches(failure)).as("%s", failure).isTrue();
        assertThat(failure).isInstanceOfSatisfying(ApplicationFailure.class, app -> assertThat(app.isNonRetryable())
                .isTrue());
    }
}
