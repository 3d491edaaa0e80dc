package io.flashsale.stores.audit;

import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/** What MySQL, the final authority, says about a sale. Reads only, each in one consistent snapshot. */
class MySqlFacts {

    /** A PENDING_PAYMENT order this long past its deadline means its workflow is not doing its job. */
    static final int OVERDUE_GRACE_SECONDS = 30;

    /** The sale row and its orders, read in one repeatable-read transaction. */
    record Snapshot(int total, int available, List<OrderFact> orders) {}

    private record SaleRow(int total, int available) {}

    private final JdbcClient jdbc;
    private final TransactionTemplate readOnly;

    MySqlFacts(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.readOnly = new TransactionTemplate(transactions);
        readOnly.setReadOnly(true);
        readOnly.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
    }

    List<String> saleIds() {
        return jdbc.sql("SELECT id FROM sales ORDER BY created_at, id")
                .query(String.class)
                .list();
    }

    Optional<Snapshot> read(String saleId) {
        return readOnly.execute(
                tx -> sale(saleId).map(row -> new Snapshot(row.total(), row.available(), orders(saleId))));
    }

    private Optional<SaleRow> sale(String saleId) {
        return jdbc.sql("SELECT total, available FROM sales WHERE id = ?")
                .param(saleId)
                .query(SaleRow.class)
                .optional();
    }

    private List<OrderFact> orders(String saleId) {
        return jdbc.sql(
                        """
                        SELECT purchase_id, sale_id, user_id, status,
                               status = 'PENDING_PAYMENT'
                                   AND pay_deadline < NOW(3) - INTERVAL ? SECOND AS overdue
                        FROM orders WHERE sale_id = ? ORDER BY purchase_id
                        """)
                .params(OVERDUE_GRACE_SECONDS, saleId)
                .query(OrderFact.class)
                .list();
    }
}
