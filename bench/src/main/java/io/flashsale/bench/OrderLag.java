package io.flashsale.bench;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;

/** From a winner's 202 to MySQL writing its order (one clock): percentiles, and the last order after the last 202. */
record OrderLag(int orders, double p50Millis, double p99Millis, double lastOrderAfterLastAnswerSeconds) {

    static final double LAST_ORDER_TARGET_S = 10;

    /** From each winner's 202 and each order's write in MySQL, epoch milliseconds by user. */
    static OrderLag of(Map<String, Long> answeredAt, Map<String, Long> writtenAt) {
        List<Long> lags = answeredAt.keySet().stream()
                .filter(writtenAt::containsKey)
                .map(user -> Math.max(0, writtenAt.get(user) - answeredAt.get(user)))
                .sorted()
                .toList();
        if (lags.isEmpty()) {
            return new OrderLag(0, Double.NaN, Double.NaN, Double.NaN);
        }
        long last = Collections.max(writtenAt.values()) - Collections.max(answeredAt.values());
        return new OrderLag(lags.size(), at(lags, 0.50), at(lags, 0.99), Math.max(0, last) / 1000.0);
    }

    /** As {@link #of(Map, Map)}, the orders of {@code saleId} read from MySQL (its clock). */
    static OrderLag of(Map<String, Long> answeredAt, JdbcClient mysql, String saleId) {
        Map<String, Long> written = new HashMap<>();
        mysql.sql("SELECT user_id, ROUND(UNIX_TIMESTAMP(created_at) * 1000) FROM orders WHERE sale_id = ?")
                .param(saleId)
                .query(row -> {
                    written.put(row.getString(1), row.getLong(2));
                });
        return of(answeredAt, written);
    }

    private static double at(List<Long> sorted, double quantile) {
        return sorted.get(Math.max(0, (int) Math.ceil(quantile * sorted.size()) - 1));
    }

    /** Adds the figures to a phase's report, prefixed with {@code side} (empty for none). */
    Report.Phase addTo(Report.Phase phase, String side) {
        return phase.value(side + "202 to order written p50 (ms)", p50Millis)
                .value(side + "202 to order written p99 (ms)", p99Millis)
                .value(
                        side + "last order written after the last 202 (s; target <= " + Report.fmt(LAST_ORDER_TARGET_S)
                                + ")",
                        lastOrderAfterLastAnswerSeconds);
    }
}
