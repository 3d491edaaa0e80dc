package io.flashsale.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.flashsale.api.security.Hs256JwtDecoder;
import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.Processes;
import io.flashsale.testkit.FreePorts;
import io.flashsale.testkit.Tokens;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;

/**
 * P2's DB-only baseline, where every buyer reaches MySQL: the api's purchase request and token check,
 * then one transaction; 201, 409 sold out or already bought, 401. {@link #main} is the server, a
 * process with the apps' JVM flags and environment; an instance is the bench's handle on it and its tables.
 */
record DbBaseline(JdbcClient mysql, Process process, int port) implements AutoCloseable {

    static final String NAME = "db-baseline";
    private static final String READY = "db baseline ready";
    private static final String PREFIX = "/api/sales/";
    private static final String SUFFIX = "/purchases";

    record Sale(int total, int available, long orders) {}

    /** Creates the tables in the run's schema (once), then starts the server on a free port. */
    static DbBaseline start(Stack stack, JdbcClient mysql) throws Exception {
        mysql.sql(
                        """
                        CREATE TABLE IF NOT EXISTS baseline_sales (
                          id VARCHAR(40) PRIMARY KEY, total INT NOT NULL, available INT NOT NULL)""")
                .update();
        mysql.sql(
                        """
                        CREATE TABLE IF NOT EXISTS baseline_orders (
                          id BIGINT AUTO_INCREMENT PRIMARY KEY, sale_id VARCHAR(40) NOT NULL,
                          user_id VARCHAR(64) NOT NULL, status VARCHAR(20) NOT NULL,
                          created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                          CONSTRAINT baseline_one_per_user UNIQUE (sale_id, user_id))""")
                .update();
        int port = FreePorts.next();
        Process process =
                stack.launch(NAME, DbBaseline.class, FlashSaleStack.JVM_DEFAULTS, READY, Integer.toString(port));
        return new DbBaseline(mysql, process, port);
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", port);
    }

    void createSale(String saleId, int units) {
        mysql.sql("INSERT INTO baseline_sales (id, total, available) VALUES (?, ?, ?)")
                .params(saleId, units, units)
                .update();
    }

    Sale sale(String saleId) {
        return mysql.sql(
                        """
                        SELECT s.total, s.available,
                               (SELECT COUNT(*) FROM baseline_orders o WHERE o.sale_id = s.id) AS orders
                        FROM baseline_sales s WHERE s.id = ?""")
                .param(saleId)
                .query(Sale.class)
                .single();
    }

    @Override
    public void close() {
        Processes.stop(process.toHandle(), Duration.ofSeconds(30));
    }

    /** The server: answers purchases on 127.0.0.1:PORT until it is stopped. */
    public static void main(String[] args) throws IOException, InterruptedException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(System.getenv("MYSQL_URL"));
        config.setUsername(System.getenv("MYSQL_USER"));
        config.setPassword(System.getenv("MYSQL_PASSWORD"));
        config.setMaximumPoolSize(20);
        HikariDataSource pool = new HikariDataSource(config);
        JwtDecoder tokens = decoder(new Tokens(System.getenv("FLASHSALE_JWT_SECRET")));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 1024);
        server.createContext(PREFIX, exchange -> purchase(exchange, pool, tokens));
        server.setExecutor(Executors.newFixedThreadPool(64));
        server.start();
        System.out.println(READY);
        new CountDownLatch(1).await();
    }

    /** The api's token checks (its TokenRules without issuer and audience, which the bench does not set). */
    private static JwtDecoder decoder(Tokens tokens) {
        return new Hs256JwtDecoder(
                tokens.key(),
                new DelegatingOAuth2TokenValidator<>(
                        new JwtClaimValidator<Instant>(JwtClaimNames.EXP, Objects::nonNull),
                        new JwtTimestampValidator()));
    }

    private static void purchase(HttpExchange exchange, HikariDataSource pool, JwtDecoder tokens) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (!"POST".equals(exchange.getRequestMethod()) || !path.endsWith(SUFFIX)) {
            answer(exchange, 404, "{\"type\":\"not-found\"}");
            return;
        }
        String user = user(exchange.getRequestHeaders().getFirst("Authorization"), tokens);
        if (user == null) {
            answer(exchange, 401, "{\"type\":\"unauthorized\"}");
            return;
        }
        try {
            boolean bought = buy(pool, path.substring(PREFIX.length(), path.length() - SUFFIX.length()), user);
            answer(
                    exchange,
                    bought ? 201 : 409,
                    bought ? "{\"status\":\"PENDING_PAYMENT\"}" : "{\"type\":\"sold-out\"}");
        } catch (SQLIntegrityConstraintViolationException duplicate) {
            answer(exchange, 409, "{\"type\":\"already-purchased\"}");
        } catch (SQLException e) {
            answer(exchange, 503, "{\"type\":\"unavailable\"}");
        }
    }

    /** The verified token's subject; null when there is no bearer token or it does not verify. */
    private static String user(String authorization, JwtDecoder tokens) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return null;
        }
        try {
            return tokens.decode(authorization.substring("Bearer ".length())).getSubject();
        } catch (JwtException invalid) {
            return null;
        }
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** One transaction: conditional decrement, then the order; rolled back when either fails. */
    private static boolean buy(HikariDataSource pool, String sale, String user) throws SQLException {
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
}
