package io.flashsale.activities.order;

import io.flashsale.stores.order.OrderRepository;
import io.flashsale.stores.order.OrderRepository.OrderRow;
import io.flashsale.workflows.TaskQueues;
import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PurchaseFailure;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.temporal.failure.ApplicationFailure;
import io.temporal.spring.boot.ActivityImpl;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The MySQL side of a purchase. Business refusals are non-retryable {@link PurchaseFailure}s, and
 * so is a statement MySQL refuses for good (a constraint other than the expected unique keys, data
 * too long: {@link PurchaseFailure#ORDER_INVALID}); every other JDBC error propagates as is, so
 * Temporal retries it.
 */
@ActivityImpl(taskQueues = TaskQueues.PURCHASE)
public class OrderActivitiesImpl implements OrderActivities {

    private final OrderRepository orders;
    private final TransactionTemplate transaction;

    public OrderActivitiesImpl(OrderRepository orders, TransactionTemplate transaction) {
        this.orders = orders;
        this.transaction = transaction;
    }

    /**
     * Idempotent by UNIQUE(purchase_id): the decrement and the insert are one transaction, so a
     * repeat's insert fails on the key, its decrement rolls back, and the order committed before is
     * returned. A first attempt, nearly every call, costs two statements: no read ahead of them.
     * UNIQUE(sale_id, user_id) refuses a second order of a user. An existing order that has ended
     * (PAID, EXPIRED, CANCELLED) is never adopted: only a new run of a purchase whose workflow is
     * gone (retention) can meet it.
     *
     * <p>Two attempts of one purchase overlap when a timed-out attempt still runs as Temporal starts
     * the retry (MySQL hung). If the other attempt takes the sale's last unit, this one sees no unit
     * left; its UPDATE waited for that attempt's row lock, so the order is committed by then and a
     * fresh read after the rollback finds it: the purchase gets its order, not SOLD_OUT.
     */
    @Override
    public long createOrder(NewOrder order) {
        try {
            return permanentFailuresRefused(() -> transaction.execute(tx -> takeUnitAndInsert(order)));
        } catch (DuplicateKeyException duplicate) {
            return existingOrder(order)
                    .orElseThrow(() -> PurchaseFailure.ALREADY_ORDERED.failure(
                            "user " + order.userId() + " already has an order for sale " + order.saleId()));
        } catch (ApplicationFailure refused) {
            if (!PurchaseFailure.SOLD_OUT.matches(refused)) {
                throw refused;
            }
            return existingOrder(order).orElseThrow(() -> refused);
        }
    }

    /** The purchase's order as committed now (outside any transaction, so no stale snapshot). */
    private Optional<Long> existingOrder(NewOrder order) {
        return orders.find(order.purchaseId()).map(OrderActivitiesImpl::pendingOrderId);
    }

    private static long pendingOrderId(OrderRow order) {
        if (order.status() != PurchaseStatus.PENDING_PAYMENT) {
            throw PurchaseFailure.ORDER_ENDED.failure(
                    "the order of " + order.purchaseId() + " ended already as " + order.status());
        }
        return order.id();
    }

    /**
     * Idempotent by the order's id + status: a repeat with the same payment id finds the order PAID.
     * The order is the one of exactly this purchase id.
     */
    @Override
    public void markPaid(String purchaseId, String paymentId) {
        OrderRow order = orders.find(purchaseId)
                .orElseThrow(() -> PurchaseFailure.PAYMENT_REJECTED.failure("no order for " + purchaseId));
        try {
            if (permanentFailuresRefused(() -> orders.markPaid(order.id(), paymentId))) {
                return;
            }
        } catch (DuplicateKeyException duplicate) {
            throw PurchaseFailure.PAYMENT_ID_IN_USE.failure("payment " + paymentId + " is used by another order");
        }
        OrderRow now = orders.find(purchaseId).orElseThrow();
        if (now.status() != PurchaseStatus.PAID || !Objects.equals(now.paymentId(), paymentId)) {
            throw PurchaseFailure.PAYMENT_REJECTED.failure(
                    "order of " + purchaseId + " is " + now.status() + " (payment " + now.paymentId() + ")");
        }
    }

    /**
     * Idempotent by the order's id + status: only the call that moves the order out of
     * PENDING_PAYMENT returns the unit, in the same transaction.
     */
    @Override
    public boolean cancelOrder(String purchaseId, PurchaseStatus outcome) {
        if (outcome != PurchaseStatus.EXPIRED && outcome != PurchaseStatus.CANCELLED) {
            throw ApplicationFailure.newNonRetryableFailure(
                    "an order ends as EXPIRED or CANCELLED, not " + outcome, "INVALID_OUTCOME");
        }
        return Boolean.TRUE.equals(transaction.execute(tx -> orders.find(purchaseId)
                .filter(order -> orders.endPending(order.id(), outcome))
                .map(order -> {
                    orders.returnUnit(order.saleId());
                    return true;
                })
                .orElse(false)));
    }

    private long takeUnitAndInsert(NewOrder order) {
        if (!orders.takeUnit(order.saleId())) {
            throw PurchaseFailure.SOLD_OUT.failure("sale " + order.saleId() + " has no unit left in MySQL");
        }
        return orders.insertPending(order);
    }

    /**
     * Runs a write whose integrity violations other than a duplicate key are permanent: retrying the
     * same statement fails the same way, so the activity fails as non-retryable.
     */
    private static <T> T permanentFailuresRefused(Supplier<T> write) {
        try {
            return write.get();
        } catch (DuplicateKeyException duplicate) {
            throw duplicate;
        } catch (DataIntegrityViolationException refused) {
            throw PurchaseFailure.ORDER_INVALID.failure("MySQL refused the write for good: "
                    + refused.getMostSpecificCause().getMessage());
        }
    }
}
