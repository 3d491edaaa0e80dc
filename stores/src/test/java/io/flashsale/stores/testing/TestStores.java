package io.flashsale.stores.testing;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Real MySQL and Redis for integration tests, isolated per Spring test context. Use it from a test
 * class of any module (depend on {@code io.flashsale:activities} with {@code <type>test-jar</type>}):
 *
 * <pre>{@code
 * @DynamicPropertySource
 * static void stores(DynamicPropertyRegistry registry) {
 *     TestStores.register(registry);
 * }
 * }</pre>
 *
 * <p>It sets {@code spring.datasource.*} to a fresh schema {@code fs_it_<random>} (created through
 * {@code createDatabaseIfNotExist=true}, Flyway migrates it; dropped when the JVM exits), {@code
 * spring.data.redis.url}, and {@code flashsale.redis.key-prefix} to a random prefix, so runs never
 * see each other's data. The servers come from the environment: {@code MYSQL_URL} (default {@code
 * jdbc:mysql://127.0.0.1:3306}), {@code MYSQL_USER} ({@code flashsale}), {@code MYSQL_PASSWORD} ({@code flashsale}),
 * {@code REDIS_URL} ({@code redis://127.0.0.1:6379}). When one is not reachable but a Docker engine
 * is, Testcontainers MySQL 8.4 or redis:7 stands in (the using module then needs {@code
 * org.testcontainers:mysql} on its test classpath); with neither, the test fails with a message.
 */
public final class TestStores {

    private static final Pattern JDBC_URL = Pattern.compile("(jdbc:[a-z]+://[^/?]+)(/[^?]*)?(\\?.*)?");

    private TestStores() {}

    public static void register(DynamicPropertyRegistry registry) {
        String schema = "fs_it_" + random(10);
        registry.add("spring.datasource.url", () -> jdbcUrl(Servers.mysql().url(), schema));
        registry.add("spring.datasource.username", () -> Servers.mysql().user());
        registry.add("spring.datasource.password", () -> Servers.mysql().password());
        registry.add("spring.data.redis.url", Servers::redisUrl);
        registry.add("flashsale.redis.key-prefix", () -> "fsit_" + random(8));
        Servers.dropOnExit(schema);
    }

    /** Random lower-case letters and digits, e.g. for sale ids ({@code "t" + random(10)}). */
    public static String random(int length) {
        StringBuilder text = new StringBuilder();
        while (text.length() < length) {
            text.append(UUID.randomUUID().toString().replace("-", ""));
        }
        return text.substring(0, length).toLowerCase(Locale.ROOT);
    }

    /** The server URL with {@code schema} as database (created on connect); "" connects to no schema. */
    static String jdbcUrl(String serverUrl, String schema) {
        Matcher url = JDBC_URL.matcher(serverUrl);
        if (!url.matches()) {
            throw new IllegalArgumentException("MYSQL_URL is not jdbc:mysql://host:port[/db][?params]: " + serverUrl);
        }
        String params = url.group(3) == null ? "" : "&" + url.group(3).substring(1);
        return url.group(1) + "/" + schema + "?createDatabaseIfNotExist=" + !schema.isEmpty() + params;
    }

    static boolean reachable(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    static boolean reachable(MySqlServer server) {
        try (Connection ignored = DriverManager.getConnection(
                jdbcUrl(server.url(), "") + "&connectTimeout=2000", server.user(), server.password())) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    static boolean reachable(URI redis) {
        return reachable(redis.getHost(), redis.getPort() < 0 ? 6379 : redis.getPort());
    }

    /** Where a MySQL (or MariaDB) server listens; {@code url} names no database. */
    record MySqlServer(String url, String user, String password) {}
}
