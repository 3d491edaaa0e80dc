package io.flashsale.stores.sale;

import java.time.Instant;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The conditional updates of a sale's row behind the operators' changes: each states in its WHERE
 * clause what must hold for it, and reports whether the row changed. The caller holds the row's
 * lock ({@link SaleRepository#findForUpdate}) and records the change in the same transaction.
 */
class SaleUpdates {

    private final JdbcClient jdbc;

    SaleUpdates(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Total and available grow by {@code units}, unless the sale has ended (or was archived). */
    boolean grow(String saleId, int units) {
        return jdbc.sql(
                                """
                                UPDATE sales SET total = total + ?, available = available + ?
                                WHERE id = ? AND (ends_at IS NULL OR ends_at > NOW(3)) AND redis_archived_at IS NULL
                                """)
                        .params(units, units, saleId)
                        .update()
                == 1;
    }

    /** Total and available shrink by {@code units}, only when that many are available. */
    boolean shrink(String saleId, int units) {
        return jdbc.sql(
                                """
                                UPDATE sales SET total = total - ?, available = available - ?
                                WHERE id = ? AND available >= ?
                                """)
                        .params(units, units, saleId, units)
                        .update()
                == 1;
    }

    /** The sale ends at {@code closes}, unless it ended at or before that already. */
    boolean closeAt(String saleId, Instant closes) {
        return jdbc.sql(
                                """
                                UPDATE sales SET ends_at = FROM_UNIXTIME(? / 1000)
                                WHERE id = ? AND (ends_at IS NULL OR ends_at > FROM_UNIXTIME(? / 1000))
                                """)
                        .params(closes.toEpochMilli(), saleId, closes.toEpochMilli())
                        .update()
                == 1;
    }

    /** The window becomes [startsAt, endsAt) (null: open from creation, no end), unless the sale has ended. */
    boolean move(String saleId, Instant startsAt, Instant endsAt) {
        return jdbc.sql(
                                """
                                UPDATE sales SET starts_at = FROM_UNIXTIME(? / 1000), ends_at = FROM_UNIXTIME(? / 1000)
                                WHERE id = ? AND (ends_at IS NULL OR ends_at > NOW(3))
                                """)
                        .params(millis(startsAt), millis(endsAt), saleId)
                        .update()
                == 1;
    }

    private static Long millis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }
}
