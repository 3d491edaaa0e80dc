package io.flashsale.stores.audit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/** What MySQL, the final authority, says about a sale. Reads only, each in one consistent snapshot. */
class MySqlFacts {

    /** A PENDING_PAYMENT order this long past its deadline means its workflow is not doing its job. */
    static final int OVERDUE_GRACE_SECONDS = 30;

    /**
     * The sale row, its orders and its unit changes (by Idempotency-Key), read in one repeatable-read
     * transaction.
     */
    record Snapshot(int total, int available, List<OrderFact> orders, Map<String, AppliedChange> changes) {}

    private record ChangeRow(String changeKey, int units, boolean overdue) {}

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
        return readOnly.execute(tx ->
                sale(saleId).map(row -> new Snapshot(row.total(), row.available(), orders(saleId), changes(saleId))));
    }

    private Optional<SaleRow> sale(String saleId) {
        return jdbc.sql("SELECT total, available FROM sales WHERE id = ?")
                .param(saleId)
                .query(SaleRow.class)
                .optional();
    }

    /** The restocks and withdrawals, which MySQL and Redis each apply under the change's key. */
    private Map<String, AppliedChange> changes(String saleId) {
        Map<String, AppliedChange> changes = new LinkedHashMap<>();
        jdbc.sql(
                        """
                        SELECT change_key, units, changed_at < NOW(3) - INTERVAL ? SECOND AS overdue
                        FROM sale_changes WHERE sale_id = ? AND kind IN ('RESTOCK', 'WITHDRAW') ORDER BY id
                        """)
                .params(OVERDUE_GRACE_SECONDS, saleId)
                .query(ChangeRow.class)
                .list()
                .forEach(row -> changes.put(row.changeKey(), new AppliedChange(row.units(), row.overdue())));
        return changes;
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
