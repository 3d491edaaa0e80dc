package io.flashsale.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * For comparison only: the seeds' "before" design, where every buyer reaches MySQL. One transaction
 * per request: {@code UPDATE ... SET available = available - 1 WHERE id = ? AND available > 0}, then
 * the order INSERT (UNIQUE(sale_id, user_id)); 201 created, 409 sold out or already bought. Behind a
 * JDK HttpServer with a fixed thread pool and the worker's default pool size (20 connections). It
 * checks no token, which only favours the baseline.
 */
final class DbBaseline implements AutoCloseable {

    static final int POOL_SIZE = 20;
    private static final int THREADS = 64;

    private final HikariDataSource pool;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(THREADS);

    private DbBaseline(HikariDataSource pool, HttpServer server) {
        this.pool = pool;
        this.server = server;
    }

    static DbBaseline start(Stores stores) throws IOException, SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(stores.jdbcUrl());
        config.setUsername(stores.user());
        config.setPassword(stores.password());
        config.setMaximumPoolSize(POOL_SIZE);
        HikariDataSource pool = new HikariDataSource(config);
        createTables(pool);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        DbBaseline baseline = new DbBaseline(pool, server);
        server.createContext("/baseline/purchase", baseline::purchase);
        server.setExecutor(baseline.threads);
        server.start();
        return baseline;
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getAddress().getPort());
    }

    void createSale(String saleId, int units) throws SQLException {
        try (Connection c = pool.getConnection();
                PreparedStatement insert =
                        c.prepareStatement("INSERT INTO baseline_sales (id, total, available) VALUES (?, ?, ?)")) {
            insert.setString(1, saleId);
            insert.setInt(2, units);
            insert.setInt(3, units);
            insert.executeUpdate();
        }
    }

    private static void createTables(HikariDataSource pool) throws SQLException {
        try (Connection c = pool.getConnection();
                Statement s = c.createStatement()) {
            s.execute(
                    """
                    CREATE TABLE IF NOT EXISTS baseline_sales (
                      id VARCHAR(40) PRIMARY KEY, total INT NOT NULL, available INT NOT NULL)""");
            s.execute(
                    """
                    CREATE TABLE IF NOT EXISTS baseline_orders (
                      id BIGINT AUTO_INCREMENT PRIMARY KEY, sale_id VARCHAR(40) NOT NULL,
                      user_id VARCHAR(64) NOT NULL, status VARCHAR(20) NOT NULL,
                      created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                      CONSTRAINT baseline_one_per_user UNIQUE (sale_id, user_id))""");
        }
    }

    private void purchase(HttpExchange exchange) throws IOException {
        String[] query = exchange.getRequestURI().getRawQuery().split("&");
        String sale = query[0].substring("sale=".length());
        String user = query[1].substring("user=".length());
        int status;
        String body;
        try {
            status = buy(sale, user) ? 201 : 409;
            body = status == 201 ? "{\"status\":\"PENDING_PAYMENT\"}" : "{\"type\":\"sold-out\"}";
        } catch (SQLIntegrityConstraintViolationException duplicate) {
            status = 409;
            body = "{\"type\":\"already-purchased\"}";
        } catch (SQLException e) {
            status = 503;
            body = "{\"type\":\"unavailable\"}";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** One transaction: conditional decrement, then the order; rolled back when either fails. */
    private boolean buy(String sale, String user) throws SQLException {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement take = c.prepareStatement(
                            "UPDATE baseline_sales SET available = available - 1 WHERE id = ? AND available > 0");
                    PreparedStatement order = c.prepareStatement(
                            "INSERT INTO baseline_orders (sale_id, user_id, status) VALUES (?, ?, 'PENDING_PAYMENT')")) {
                take.setString(1, sale);
                if (take.executeUpdate() != 1) {
                    c.rollback();
                    return false;
                }
                order.setString(1, sale);
                order.setString(2, user);
                order.executeUpdate();
                c.commit();
                return true;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
        pool.close();
    }
}
