package io.flashsale.launcher;

import io.flashsale.launcher.temporal.DevServer;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a run keeps its data: a fresh MySQL schema and Redis key prefix on the servers named by
 * MYSQL_URL / MYSQL_USER / MYSQL_PASSWORD / REDIS_URL, dropped again by {@link #drop()}.
 *
 * @param mysql {@code jdbc:mysql://host[:port]} of the MySQL server
 * @param params the parameters of MYSQL_URL after its {@code ?}, or ""
 */
public record PrivateStores(
        String mysql, String params, String schema, String user, String password, String redisUrl, String redisPrefix) {

    private static final Pattern JDBC_URL = Pattern.compile("(jdbc:[a-z]+://[^/?]+)(?:/([^?]*))?(?:\\?(.*))?");

    /** A private schema and prefix for one run, on the stores of this process's environment. */
    public static PrivateStores fresh() {
        String id = UUID.randomUUID().toString().substring(0, 8);
        PrivateStores env = configured(System.getenv());
        return new PrivateStores(
                env.mysql, env.params, "fs_bench_" + id, env.user, env.password, env.redisUrl, "fsbench_" + id);
    }

    /** The stores of {@code env} as the apps see them: blank means the default; an empty MYSQL_PASSWORD, none. */
    public static PrivateStores configured(Map<String, String> env) {
        String url = env(env, "MYSQL_URL", "jdbc:mysql://127.0.0.1:3306/flashsale")
                .replaceFirst("^jdbc:mariadb:", "jdbc:mysql:");
        Matcher m = JDBC_URL.matcher(url);
        if (!m.matches()) {
            throw new IllegalArgumentException("MYSQL_URL is not jdbc:mysql://host:port[/db][?params]: " + url);
        }
        return new PrivateStores(
                m.group(1),
                m.group(3) == null ? "" : m.group(3),
                m.group(2) == null ? "" : m.group(2),
                env(env, "MYSQL_USER", "flashsale"),
                env.getOrDefault("MYSQL_PASSWORD", "flashsale"),
                env(env, "REDIS_URL", "redis://127.0.0.1:6379"),
                env(env, "FLASHSALE_REDIS_PREFIX", "fs"));
    }

    /** The same schema and prefix, the Redis keys on the server of {@code url} (e.g. a Redis of the run's own). */
    public PrivateStores onRedis(String url) {
        return new PrivateStores(mysql, params, schema, user, password, url, redisPrefix);
    }

    /** The same schema, prefix and MySQL user on the server of {@code url} ({@code jdbc:mysql://host:port}). */
    public PrivateStores onMysql(String url) {
        return new PrivateStores(url, "", schema, user, password, redisUrl, redisPrefix);
    }

    /** What a private stack's apps are given; all load comes from 127.0.0.1, so the per-address rate limit is off. */
    public Map<String, String> environment(String temporalAddress) {
        return Map.of(
                "FLASHSALE_RATE_LIMIT_ADDRESS_CAPACITY", "0",
                "MYSQL_URL", jdbcUrl(),
                "MYSQL_USER", user,
                "MYSQL_PASSWORD", password,
                "REDIS_URL", redisUrl,
                "FLASHSALE_REDIS_PREFIX", redisPrefix,
                "TEMPORAL_ADDRESS", temporalAddress,
                "TEMPORAL_NAMESPACE", DevServer.NAMESPACE);
    }

    public String jdbcUrl() {
        return mysql + "/" + schema + "?createDatabaseIfNotExist=true" + (params.isEmpty() ? "" : "&" + params);
    }

    /** {@code host:port} of the MySQL server, for messages. */
    public String server() {
        String server = mysql.replaceFirst("^jdbc:[a-z]+://", "");
        return server.contains(":") ? server : server + ":3306";
    }

    /** Drops the schema and every Redis key under the prefix. Only for stores made by {@link #fresh()}. */
    public void drop() {
        try {
            dropSchema();
        } catch (SQLException e) {
            System.err.println("could not drop schema " + schema + ": " + e.getMessage());
        }
        unlinkKeys();
    }

    public boolean schemaExists() throws SQLException {
        try (Connection c = connectToServer();
                PreparedStatement query =
                        c.prepareStatement("SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?")) {
            query.setString(1, schema);
            return query.executeQuery().next();
        }
    }

    public void dropSchema() throws SQLException {
        // an identifier cannot be a parameter: quoted, a backtick in it doubled
        try (Connection c = connectToServer();
                Statement drop = c.createStatement()) {
            drop.execute("DROP DATABASE IF EXISTS `" + schema.replace("`", "``") + "`");
        }
    }

    public long keys() {
        return scan(false);
    }

    /** UNLINKs every Redis key under the prefix; how many went. */
    public long unlinkKeys() {
        return scan(true);
    }

    /** A connection to the MySQL server without choosing (or creating) the schema; fails within 5 s. */
    private Connection connectToServer() throws SQLException {
        return DriverManager.getConnection(
                mysql + "/?" + (params.isEmpty() ? "" : params + "&") + "connectTimeout=5000", user, password);
    }

    /** SCANs the keys under the prefix 1000 at a time, unlinking each batch when {@code unlink}; how many. */
    private long scan(boolean unlink) {
        RedisClient client = RedisClient.create(redisUrl);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            ScanArgs matching = ScanArgs.Builder.matches(redisPrefix + ":*").limit(1000);
            long count = 0;
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<String> batch = redis.scan(cursor, matching);
                count += batch.getKeys().isEmpty()
                        ? 0
                        : unlink
                                ? redis.unlink(batch.getKeys().toArray(String[]::new))
                                : batch.getKeys().size();
                cursor = batch;
            } while (!cursor.isFinished());
            return count;
        } finally {
            client.shutdown();
        }
    }

    private static String env(Map<String, String> env, String name, String fallback) {
        String value = env.get(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
