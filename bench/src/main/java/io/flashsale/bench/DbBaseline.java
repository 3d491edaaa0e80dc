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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.transaction.support.TransactionTemplate;

/** P2's DB-only baseline: the api's request and token check, then one MySQL transaction; {@link #main} serves it. */
record DbBaseline(JdbcClient mysql, Process process, InetSocketAddress address) implements AutoCloseable {

    static final String NAME = "db-baseline";
    private static final String READY = "db baseline ready";
    private static final String PREFIX = "/api/sales/";
    private static final String SUFFIX = "/purchases";
    private static final String TAKE =
            "UPDATE baseline_sales SET available = available - 1 WHERE id = ? AND available > 0";
    private static final String ORDER =
            "INSERT INTO baseline_orders (sale_id, user_id, status) VALUES (?, ?, 'PENDING_PAYMENT')";
    private static final List<String> TABLES = List.of(
            "baseline_sales (id VARCHAR(40) PRIMARY KEY, total INT NOT NULL, available INT NOT NULL)",
            """
            baseline_orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, sale_id VARCHAR(40) NOT NULL,
              user_id VARCHAR(64) NOT NULL, status VARCHAR(20) NOT NULL,
              created_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
              CONSTRAINT baseline_one_per_user UNIQUE (sale_id, user_id))""");

    record Sale(int total, int available, long orders) {}

    /** Creates the tables in the run's schema (once), then starts the server on a free port. */
    static DbBaseline start(Stack stack, JdbcClient mysql) throws Exception {
        for (String table : TABLES) {
            mysql.sql("CREATE TABLE IF NOT EXISTS " + table).update();
        }
        int port = FreePorts.next();
        Process process = stack.launch(NAME, DbBaseline.class, FlashSaleStack.JVM_DEFAULTS, READY, "" + port);
        return new DbBaseline(mysql, process, new InetSocketAddress("127.0.0.1", port));
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
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(pool));
        JdbcClient db = JdbcClient.create(pool);
        // the api's token rules, without the issuer and audience the bench does not set
        JwtDecoder tokens = new Hs256JwtDecoder(
                new Tokens(System.getenv("FLASHSALE_JWT_SECRET")).key(),
                new DelegatingOAuth2TokenValidator<>(
                        new JwtClaimValidator<Instant>(JwtClaimNames.EXP, Objects::nonNull),
                        new JwtTimestampValidator()));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 1024);
        server.createContext(PREFIX, exchange -> answer(exchange, purchase(exchange, tokens, transaction, db)));
        server.setExecutor(Executors.newFixedThreadPool(64));
        server.start();
        System.out.println(READY);
        new CountDownLatch(1).await();
    }

    /** A purchase's status and problem type: one transaction, the conditional decrement, then the order. */
    private static String purchase(HttpExchange exchange, JwtDecoder tokens, TransactionTemplate tx, JdbcClient db) {
        String path = exchange.getRequestURI().getPath();
        String authorization =
                Objects.requireNonNullElse(exchange.getRequestHeaders().getFirst("Authorization"), "");
        if (!"POST".equals(exchange.getRequestMethod()) || !path.endsWith(SUFFIX)) {
            return "404 not-found";
        }
        try {
            String user = tokens.decode(authorization.startsWith("Bearer ") ? authorization.substring(7) : "")
                    .getSubject();
            String sale = path.substring(PREFIX.length(), path.length() - SUFFIX.length());
            return tx.execute(status -> {
                if (db.sql(TAKE).param(sale).update() == 0) {
                    return "409 sold-out";
                }
                db.sql(ORDER).params(sale, user).update();
                return "201 created";
            });
        } catch (JwtException invalid) {
            return "401 unauthorized";
        } catch (DataIntegrityViolationException duplicate) {
            return "409 already-purchased";
        } catch (DataAccessException e) {
            return "503 unavailable";
        }
    }

    /** {@code answer}: the status, then the problem type unless 201. */
    private static void answer(HttpExchange exchange, String answer) throws IOException {
        int status = Integer.parseInt(answer.substring(0, 3));
        byte[] body = (status == 201
                        ? "{\"status\":\"PENDING_PAYMENT\"}"
                        : "{\"type\":\"" + answer.substring(4) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
