package io.flashsale.stores.payment;

import io.flashsale.stores.sale.Price;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.util.List;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Money that arrived for a purchase that can no longer be paid ({@code payment_refunds}): the fact
 * is kept so the money goes back to the buyer instead of being lost.
 */
public class PaymentRefunds {

    /** One payment to give back, and the purchase's status when it arrived. */
    public record RefundNeeded(
            String paymentId, String purchaseId, String saleId, Price amount, PurchaseStatus purchaseStatus) {}

    private final JdbcClient jdbc;

    public PaymentRefunds(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Idempotent by payment id (primary key): the provider's retries of one payment record one row.
     *
     * @return true when this call recorded it
     */
    public boolean record(RefundNeeded refund) {
        try {
            jdbc.sql(
                            """
                            INSERT INTO payment_refunds
                                (payment_id, purchase_id, sale_id, amount_minor, currency, purchase_status)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """)
                    .params(
                            refund.paymentId(),
                            refund.purchaseId(),
                            refund.saleId(),
                            refund.amount().amountMinor(),
                            refund.amount().currency(),
                            refund.purchaseStatus().name())
                    .update();
            return true;
        } catch (DuplicateKeyException recordedBefore) {
            return false;
        }
    }

    /** The sale's refunds to make, oldest first. */
    public List<RefundNeeded> ofSale(String saleId) {
        return jdbc.sql(
                        """
                        SELECT payment_id, purchase_id, sale_id, amount_minor, currency, purchase_status
                        FROM payment_refunds WHERE sale_id = ? ORDER BY created_at, payment_id
                        """)
                .param(saleId)
                .query((row, n) -> new RefundNeeded(
                        row.getString("payment_id"),
                        row.getString("purchase_id"),
                        row.getString("sale_id"),
                        new Price(row.getLong("amount_minor"), row.getString("currency")),
                        PurchaseStatus.valueOf(row.getString("purchase_status"))))
                .list();
    }
}
