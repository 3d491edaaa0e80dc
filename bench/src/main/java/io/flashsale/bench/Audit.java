package io.flashsale.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The invariants a run can check from outside, straight from MySQL (the authority) and Redis:
 * no oversell, one order per user, MySQL and Redis unit counts balance.
 */
final class Audit {

    /** One sale's counts after a run. */
    record Result(
            int total,
            int available,
            Map<String, Integer> ordersByStatus,
            int duplicateOrders,
            long redisStock,
            long redisHeld) {

        int status(String status) {
            return ordersByStatus.getOrDefault(status, 0);
        }

        int holdingUnits() {
            return status("PENDING_PAYMENT") + status("PAID");
        }

        /** Units sold beyond the total: orders holding units above the total, or a negative count. */
        int oversold() {
            return Math.max(0, holdingUnits() - total) + Math.max(0, -available);
        }

        /** I1: available + PENDING_PAYMENT + PAID = total. */
        boolean mysqlBalanced() {
            return available + holdingUnits() == total && available >= 0;
        }

        /** I3 (when nothing is in flight): Redis stock + HELD reservations = total. */
        boolean redisBalanced() {
            return redisStock + redisHeld == total;
        }
    }

    private final Stores stores;

    Audit(Stores stores) {
        this.stores = stores;
    }

    int pendingPayment(String saleId) throws SQLException {
        return count("SELECT COUNT(*) FROM orders WHERE sale_id = ? AND status = 'PENDING_PAYMENT'", saleId);
    }

    Result check(String saleId) throws SQLException {
        try (Connection c = stores.connect()) {
            int[] sale = sale(c, saleId);
            return new Result(
                    sale[0],
                    sale[1],
                    ordersByStatus(c, saleId),
                    count(c, "SELECT COUNT(*) - COUNT(DISTINCT user_id) FROM orders WHERE sale_id = ?", saleId),
                    redisStock(saleId),
                    redisHeld(saleId));
        }
    }

    private static int[] sale(Connection c, String saleId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT total, available FROM sales WHERE id = ?")) {
            s.setString(1, saleId);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalStateException("no sale " + saleId + " in MySQL");
                }
                return new int[] {r.getInt(1), r.getInt(2)};
            }
        }
    }

    private static Map<String, Integer> ordersByStatus(Connection c, String saleId) throws SQLException {
        Map<String, Integer> counts = new TreeMap<>();
        try (PreparedStatement s =
                c.prepareStatement("SELECT status, COUNT(*) FROM orders WHERE sale_id = ? GROUP BY status")) {
            s.setString(1, saleId);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    counts.put(r.getString(1), r.getInt(2));
                }
            }
        }
        return counts;
    }

    private int count(String sql, String saleId) throws SQLException {
        try (Connection c = stores.connect()) {
            return count(c, sql, saleId);
        }
    }

    private static int count(Connection c, String sql, String saleId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, saleId);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }

    private long redisStock(String saleId) {
        return redis(r -> {
            String stock = r.sync().get(key(saleId, "stock"));
            return stock == null ? -1L : Long.parseLong(stock);
        });
    }

    private long redisHeld(String saleId) {
        return redis(r -> r.sync().hvals(key(saleId, "holds")).stream()
                .filter("HELD"::equals)
                .count());
    }

    private String key(String saleId, String name) {
        return stores.redisPrefix() + ":{sale:" + saleId + "}:" + name;
    }

    private long redis(java.util.function.ToLongFunction<StatefulRedisConnection<String, String>> query) {
        RedisClient client = RedisClient.create(stores.redisUrl());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return query.applyAsLong(connection);
        } finally {
            client.shutdown();
        }
    }
}
