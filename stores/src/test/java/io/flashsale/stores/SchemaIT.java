package io.flashsale.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;

/**
 * The schema as the Flyway migrations leave it, on whichever server the test runs (MariaDB 10.11 in
 * CI, Oracle MySQL through bin/lib/oracle-mysql.sh, see docs/mysql.md): the id columns compare
 * byte-exactly whatever the server's default collation, and the server enforces the CHECK
 * constraints, the last guard behind the conditional SQL.
 */
class SchemaIT extends StoresIntegrationTest {

    @Autowired
    SaleRepository sales;

    String saleId;

    @BeforeEach
    void sale() {
        saleId = TestSales.newId();
        sales.insertIfAbsent(TestSales.open(saleId, 3));
    }

    @Test
    void idColumnsUseTheBinaryCollationWhateverTheServerDefault() {
        List<String> collations = jdbc.sql(
                        """
                        SELECT CONCAT(table_name, '.', column_name, ' ', collation_name)
                        FROM information_schema.columns
                        WHERE table_schema = DATABASE() AND column_name IN ('id', 'purchase_id', 'sale_id',
                              'user_id', 'payment_id') AND table_name IN ('sales', 'orders', 'payment_refunds')
                              AND data_type = 'varchar'
                        ORDER BY 1
                        """)
                .query(String.class)
                .list();

        assertThat(collations)
                .containsExactly(
                        "orders.payment_id utf8mb4_bin",
                        "orders.purchase_id utf8mb4_bin",
                        "orders.sale_id utf8mb4_bin",
                        "orders.user_id utf8mb4_bin",
                        "payment_refunds.payment_id utf8mb4_bin",
                        "payment_refunds.purchase_id utf8mb4_bin",
                        "payment_refunds.sale_id utf8mb4_bin",
                        "sales.id utf8mb4_bin");
    }

    @Test
    void refusesANegativeUnitCount() {
        assertRefused("UPDATE sales SET available = -1 WHERE id = ?", "sales_available_not_negative");
    }

    @Test
    void refusesMoreUnitsAvailableThanTheSaleHas() {
        assertRefused("UPDATE sales SET available = total + 1 WHERE id = ?", "sales_available_within_total");
    }

    @Test
    void refusesHalfARateLimitBucket() {
        assertRefused("UPDATE sales SET user_bucket_capacity = 5 WHERE id = ?", "sales_user_bucket_whole");
        assertRefused("UPDATE sales SET address_bucket_refill = 1.5 WHERE id = ?", "sales_address_bucket_whole");
    }

    @Test
    void refusesANegativePrice() {
        assertRefused("UPDATE sales SET price_minor = -1 WHERE id = ?", "sales_price_not_negative");
    }

    /**
     * The statement fails on the CHECK constraint {@code constraint} and the sale's row is as it was.
     * (MariaDB reports it with SQLSTATE 23000, a DataIntegrityViolationException to Spring; MySQL
     * with HY000 and error 3819, which Spring leaves uncategorized.)
     */
    private void assertRefused(String update, String constraint) {
        String before = row();

        Throwable refused = catchThrowable(() -> jdbc.sql(update).param(saleId).update());

        assertThat(refused).isInstanceOf(DataAccessException.class).hasMessageContaining(constraint);
        assertThat(row()).isEqualTo(before);
    }

    private String row() {
        return jdbc.sql(
                        """
                        SELECT CONCAT_WS(' ', available, total, COALESCE(user_bucket_capacity, '-'),
                               COALESCE(address_bucket_refill, '-'), price_minor)
                        FROM sales WHERE id = ?
                        """)
                .param(saleId)
                .query(String.class)
                .single();
    }
}
