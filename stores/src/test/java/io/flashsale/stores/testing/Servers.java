package io.flashsale.stores.testing;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Decides once per JVM which MySQL and Redis the tests use: the configured ones or containers. */
final class Servers {

    private static TestStores.MySqlServer mysql;
    private static String redisUrl;
    private static final List<String> SCHEMAS = new CopyOnWriteArrayList<>();

    private Servers() {}

    static synchronized TestStores.MySqlServer mysql() {
        if (mysql == null) {
            TestStores.MySqlServer configured = new TestStores.MySqlServer(
                    env("MYSQL_URL", "jdbc:mysql://127.0.0.1:3306"),
                    env("MYSQL_USER", "flashsale"),
                    env("MYSQL_PASSWORD", "flashsale"));
            mysql = TestStores.reachable(configured)
                    ? configured
                    : containerOr("MySQL at " + configured.url()).mysql();
            Runtime.getRuntime().addShutdownHook(new Thread(Servers::dropSchemas));
        }
        return mysql;
    }

    static synchronized String redisUrl() {
        if (redisUrl == null) {
            String configured = env("REDIS_URL", "redis://127.0.0.1:6379");
            redisUrl = TestStores.reachable(URI.create(configured))
                    ? configured
                    : containerOr("Redis at " + configured).redisUrl();
        }
        return redisUrl;
    }

    static void dropOnExit(String schema) {
        SCHEMAS.add(schema);
    }

    private static ContainerStores containerOr(String missing) {
        if (!ContainerStores.dockerAvailable()) {
            throw new IllegalStateException("No " + missing + " and no Docker engine for Testcontainers: start"
                    + " MySQL/MariaDB and Redis, or set MYSQL_URL, MYSQL_USER, MYSQL_PASSWORD, REDIS_URL");
        }
        return ContainerStores.instance();
    }

    private static void dropSchemas() {
        TestStores.MySqlServer server = mysql;
        try (Connection connection =
                DriverManager.getConnection(TestStores.jdbcUrl(server.url(), ""), server.user(), server.password())) {
            for (String schema : SCHEMAS) {
                connection.createStatement().execute("DROP DATABASE IF EXISTS " + schema);
            }
        } catch (SQLException e) {
            // best effort: a leftover fs_it_ schema harms nobody
        }
    }

    private static String env(String name, String fallback) {
        return Optional.ofNullable(System.getenv(name))
                .filter(v -> !v.isBlank())
                .orElse(fallback);
    }
}
