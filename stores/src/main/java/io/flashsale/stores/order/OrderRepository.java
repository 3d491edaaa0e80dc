package io.flashsale.stores.order;

import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

/**
 * The {@code orders} table and the unit count of {@code sales}, as single statements. An order is
 * found by its purchase id and then changed by its primary key only.
 */
public class OrderRepository {

    private final JdbcClient jdbc;

    public OrderRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The order of exactly this purchase: a row whose purchase id differs (only in case, on a column
     * that compares case-insensitively) is another buyer's order and is never returned.
     */
    public Optional<OrderRow> find(String purchaseId) {
        return jdbc.sql(
                        """
                        SELECT id, purchase_id, sale_id, status, payment_id FROM orders WHERE purchase_id = ?
                        """)
                .param(purchaseId)
                .query(OrderRow.class)
                .optional()
                .filter(order -> order.purchaseId().equals(purchaseId));
    }

    /** Conditional decrement: false when the sale has no unit left (or does not exist). */
    public boolean takeUnit(String saleId) {
        return jdbc.sql(
                                """
                        UPDATE sales SET available = available - 1 WHERE id = ? AND available > 0
                        """)
                        .param(saleId)
                        .update()
                == 1;
    }

    public void returnUnit(String saleId) {
        jdbc.sql(
                        """
                        UPDATE sales SET available = available + 1 WHERE id = ?
                        """)
                .param(saleId)
                .update();
    }

    /**
     * A fixed deadline travels as epoch millis (FROM_UNIXTIME): exact whatever the time zones; without
     * one, the deadline is the write's time plus the pay timeout. The order records the price it is
     * sold at, copied from its sale in the same statement. Throws DuplicateKeyException on
     * UNIQUE(purchase_id) or UNIQUE(sale_id, user_id).
     */
    public long insertPending(NewOrder order) {
        KeyHolder key = new GeneratedKeyHolder();
        jdbc.sql(
                        """
                        INSERT INTO orders (purchase_id, sale_id, user_id, status, pay_deadline, price_minor, currency)
                        SELECT ?, id, ?, ?, COALESCE(FROM_UNIXTIME(? / 1000), NOW(3) + INTERVAL ? SECOND),
                               price_minor, currency
                        FROM sales WHERE id = ?
                        """)
                .params(
                        order.purchaseId(),
                        order.userId(),
                        PurchaseStatus.PENDING_PAYMENT.name(),
                        order.payDeadline() == null ? null : order.payDeadline().toEpochMilli(),
                        order.payTimeoutSeconds(),
                        order.saleId())
                .update(key);
        Number id = key.getKey();
        if (id == null) {
            throw new IllegalStateException("no sale " + order.saleId() + " for order " + order.purchaseId());
        }
        return id.longValue();
    }

    /** PENDING_PAYMENT to PAID; throws DuplicateKeyException when another order has the payment id. */
    public boolean markPaid(long orderId, String paymentId) {
        return jdbc.sql(
                                """
                        UPDATE orders SET status = ?, payment_id = ? WHERE id = ? AND status = ?
                        """)
                        .params(PurchaseStatus.PAID.name(), paymentId, orderId, PurchaseStatus.PENDING_PAYMENT.name())
                        .update()
                == 1;
    }

    /** PENDING_PAYMENT to {@code outcome}; false when the order is not pending (any more). */
    public boolean endPending(long orderId, PurchaseStatus outcome) {
        return jdbc.sql(
                                """
                        UPDATE orders SET status = ? WHERE id = ? AND status = ?
                        """)
                        .params(outcome.name(), orderId, PurchaseStatus.PENDING_PAYMENT.name())
                        .update()
                == 1;
    }

    public record OrderRow(long id, String purchaseId, String saleId, PurchaseStatus status, String paymentId) {}
}
