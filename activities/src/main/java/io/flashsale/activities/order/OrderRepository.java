package io.flashsale.activities.order;

import io.flashsale.workflows.purchase.NewOrder;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;

/** The {@code orders} table and the unit count of {@code sales}, as single statements. */
class OrderRepository {

    private final JdbcClient jdbc;

    OrderRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<OrderRow> find(String purchaseId) {
        return jdbc.sql(
                        """
                        SELECT id, sale_id, status, payment_id FROM orders WHERE purchase_id = ?
                        """)
                .param(purchaseId)
                .query(OrderRow.class)
                .optional();
    }

    /** Conditional decrement: false when the sale has no unit left (or does not exist). */
    boolean takeUnit(String saleId) {
        return jdbc.sql(
                                """
                        UPDATE sales SET available = available - 1 WHERE id = ? AND available > 0
                        """)
                        .param(saleId)
                        .update()
                == 1;
    }

    void returnUnit(String saleId) {
        jdbc.sql(
                        """
                        UPDATE sales SET available = available + 1 WHERE id = ?
                        """)
                .param(saleId)
                .update();
    }

    /**
     * The deadline travels as epoch millis (FROM_UNIXTIME): exact whatever the time zones. Throws
     * DuplicateKeyException on UNIQUE(purchase_id) or UNIQUE(sale_id, user_id). */
    long insertPending(NewOrder order) {
        KeyHolder key = new GeneratedKeyHolder();
        jdbc.sql(
                        """
                        INSERT INTO orders (purchase_id, sale_id, user_id, status, pay_deadline)
                        VALUES (?, ?, ?, 'PENDING_PAYMENT', FROM_UNIXTIME(? / 1000))
                        """)
                .params(
                        order.purchaseId(),
                        order.saleId(),
                        order.userId(),
                        order.payDeadline().toEpochMilli())
                .update(key);
        return key.getKeyAs(Number.class).longValue();
    }

    /** PENDING_PAYMENT to PAID; throws DuplicateKeyException when another order has the payment id. */
    boolean markPaid(String purchaseId, String paymentId) {
        return jdbc.sql(
                                """
                        UPDATE orders SET status = 'PAID', payment_id = ?
                        WHERE purchase_id = ? AND status = 'PENDING_PAYMENT'
                        """)
                        .params(paymentId, purchaseId)
                        .update()
                == 1;
    }

    /** PENDING_PAYMENT to {@code outcome}; false when the order is not pending (any more). */
    boolean endPending(String purchaseId, PurchaseStatus outcome) {
        return jdbc.sql(
                                """
                        UPDATE orders SET status = ?
                        WHERE purchase_id = ? AND status = 'PENDING_PAYMENT'
                        """)
                        .params(outcome.name(), purchaseId)
                        .update()
                == 1;
    }

    record OrderRow(long id, String saleId, String status, String paymentId) {}
}
