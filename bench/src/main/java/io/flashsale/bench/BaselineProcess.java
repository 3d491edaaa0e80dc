package io.flashsale.bench;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.PrivateStores;
import io.flashsale.testkit.FreePorts;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * P2's DB-only baseline ({@link DbBaseline}) as a process of the run: started from the bench jar
 * with the apps' JVM flags ({@link FlashSaleStack#JVM_DEFAULTS}) on a free port, its tables and
 * sales written and read by the bench over JDBC, stopped when closed.
 */
final class BaselineProcess implements AutoCloseable {

    static final String NAME = "db-baseline";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    /** A sale as the baseline's tables hold it. */
    record Sale(int total, int available, long orders) {}

    private final PrivateStores stores;
    private final Process process;
    private final int port;

    private BaselineProcess(PrivateStores stores, Process process, int port) {
        this.stores = stores;
        this.process = process;
        this.port = port;
    }

    static BaselineProcess start(Stack stack, PrivateStores stores) throws Exception {
        try (Connection c = connect(stores)) {
            DbBaseline.createTables(c);
        }
        int port = FreePorts.next();
        BaselineProcess baseline = new BaselineProcess(
                stores,
                stack.launchBenchProcess(NAME, FlashSaleStack.JVM_DEFAULTS, List.of(NAME, Integer.toString(port))),
                port);
        try {
            stack.awaitLog(NAME, DbBaseline.READY, READY_TIMEOUT);
            return baseline;
        } catch (Exception | Error e) {
            baseline.close();
            throw e;
        }
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", port);
    }

    ProcessHandle process() {
        return process.toHandle();
    }

    void createSale(String saleId, int units) throws SQLException {
        try (Connection c = connect(stores);
                PreparedStatement insert =
                        c.prepareStatement("INSERT INTO baseline_sales (id, total, available) VALUES (?, ?, ?)")) {
            insert.setString(1, saleId);
            insert.setInt(2, units);
            insert.setInt(3, units);
            insert.executeUpdate();
        }
    }

    /** The sale's units and orders, read from the baseline's tables. */
    Sale sale(String saleId) throws SQLException {
        try (Connection c = connect(stores);
                PreparedStatement read = c.prepareStatement(
                        """
                        SELECT s.total, s.available,
                               (SELECT COUNT(*) FROM baseline_orders o WHERE o.sale_id = s.id) AS orders
                        FROM baseline_sales s WHERE s.id = ?""")) {
            read.setString(1, saleId);
            try (ResultSet row = read.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("no baseline sale " + saleId);
                }
                return new Sale(row.getInt("total"), row.getInt("available"), row.getLong("orders"));
            }
        }
    }

    private static Connection connect(PrivateStores stores) throws SQLException {
        return DriverManager.getConnection(stores.jdbcUrl(), stores.user(), stores.password());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
