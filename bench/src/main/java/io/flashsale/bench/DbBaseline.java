package io.flashsale.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.flashsale.testkit.Tokens;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import javax.crypto.SecretKey;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * P2's DB-only baseline, the design where every buyer reaches MySQL (docs/performance.md): the api's
 * purchase request and token check, then one transaction; 201 created, 409 sold out or already
 * bought, 401 for a token that does not verify. A process of its own ({@link BaselineProcess}) with
 * the api's environment ({@code MYSQL_*}, {@code FLASHSALE_JWT_SECRET}).
 */
final class DbBaseline {

    static final int POOL_SIZE = 20;
    static final String READY = "db baseline ready";
    private static final int THREADS = 64;
    private static final String PREFIX = "/api/sales/";
    private static final String SUFFIX = "/purchases";

    private final HikariDataSource pool;
    private final JwtDecoder tokens;

    private DbBaseline(HikariDataSource pool, JwtDecoder tokens) {
        this.pool = pool;
        this.tokens = tokens;
    }

    /** The process: answers purchases on 127.0.0.1:{@code port} until it is stopped. */
    static void serve(int port) throws IOException, InterruptedException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(System.getenv("MYSQL_URL"));
        config.setUsername(System.getenv("MYSQL_USER"));
        config.setPassword(System.getenv("MYSQL_PASSWORD"));
        config.setMaximumPoolSize(POOL_SIZE);
        DbBaseline baseline = new DbBaseline(
                new HikariDataSource(config), decoder(new Tokens(System.getenv("FLASHSALE_JWT_SECRET")).key()));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.createContext(PREFIX, baseline::purchase);
        server.setExecutor(Executors.newFixedThreadPool(THREADS));
        server.start();
        System.out.println(READY);
        new CountDownLatch(1).await();
    }

    /** The baseline's tables, created by the bench (once per schema) before the process starts. */
    static void createTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
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

    /** The api's token checks (its TokenRules without issuer and audience, which the bench does not set). */
    private static JwtDecoder decoder(SecretKey key) {
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withSecretKey(key)
                .macAlgorithm(MacAlgorithm.HS256)
                .build();
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(
                new JwtClaimValidator<Instant>(JwtClaimNames.EXP, Objects::nonNull), new JwtTimestampValidator()));
        return decoder;
    }

    private void purchase(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (!"POST".equals(exchange.getRequestMethod()) || !path.endsWith(SUFFIX)) {
            answer(exchange, 404, "{\"type\":\"not-found\"}");
            return;
        }
        String user = user(exchange.getRequestHeaders().getFirst("Authorization"));
        if (user == null) {
            answer(exchange, 401, "{\"type\":\"unauthorized\"}");
            return;
        }
        String sale = path.substring(PREFIX.length(), path.length() - SUFFIX.length());
        try {
            boolean bought = buy(sale, user);
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
    private String user(String authorization) {
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
}
