package io.flashsale.stores.sale;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The audit trail of sale changes ({@code sale_changes}): written in the transaction that changes the
 * sale's row, read by the sale view. {@code UNIQUE(sale_id, change_key)} makes a restock or
 * withdrawal happen once per Idempotency-Key and a close once per sale.
 */
public class SaleChangeLog {

    private static final String SELECT_CHANGE =
            """
            SELECT kind, change_key, units_asked, units,
                   CAST(UNIX_TIMESTAMP(starts_at) * 1000 AS SIGNED) AS starts_at_millis,
                   CAST(UNIX_TIMESTAMP(ends_at) * 1000 AS SIGNED) AS ends_at_millis,
                   changed_by, CAST(UNIX_TIMESTAMP(changed_at) * 1000 AS SIGNED) AS changed_at_millis
            FROM sale_changes
            """;

    private final JdbcClient jdbc;

    public SaleChangeLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Every change of the sale, oldest first. */
    public List<SaleChange> of(String saleId) {
        return jdbc
                .sql(SELECT_CHANGE + " WHERE sale_id = ? ORDER BY id")
                .param(saleId)
                .query(ChangeRow.class)
                .list()
                .stream()
                .map(ChangeRow::toChange)
                .toList();
    }

    /** The change recorded under this key (byte-exact, like every id). */
    Optional<SaleChange> find(String saleId, String key) {
        return jdbc.sql(SELECT_CHANGE + " WHERE sale_id = ? AND change_key = ?")
                .params(saleId, key)
                .query(ChangeRow.class)
                .optional()
                .map(ChangeRow::toChange);
    }

    /** Records the change at the database's time; {@code changedAt} is ignored. */
    void record(String saleId, SaleChange change) {
        jdbc.sql(
                        """
                        INSERT INTO sale_changes (sale_id, kind, change_key, units_asked, units, starts_at, ends_at,
                                                  changed_by)
                        VALUES (?, ?, ?, ?, ?, FROM_UNIXTIME(? / 1000), FROM_UNIXTIME(? / 1000), ?)
                        """)
                .params(
                        saleId,
                        change.kind().name(),
                        change.key(),
                        change.unitsAsked(),
                        change.units(),
                        millis(change.startsAt()),
                        millis(change.endsAt()),
                        change.changedBy())
                .update();
    }

    private static Long millis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    record ChangeRow(
            SaleChangeKind kind,
            String changeKey,
            Integer unitsAsked,
            int units,
            Long startsAtMillis,
            Long endsAtMillis,
            String changedBy,
            long changedAtMillis) {

        SaleChange toChange() {
            return new SaleChange(
                    kind,
                    changeKey,
                    unitsAsked,
                    units,
                    instant(startsAtMillis),
                    instant(endsAtMillis),
                    changedBy,
                    Instant.ofEpochMilli(changedAtMillis));
        }

        private static Instant instant(Long millis) {
            return millis == null ? null : Instant.ofEpochMilli(millis);
        }
    }
}
