package io.flashsale.launcher;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisKeyCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a run keeps its data: a fresh MySQL schema and Redis key prefix on the servers named by
 * MYSQL_URL / MYSQL_USER / MYSQL_PASSWORD / REDIS_URL, dropped again by {@link #drop()}; the Redis
 * keys on a Redis Cluster instead when {@code redisClusterNodes} names one ({@link #onCluster}).
 */
public record PrivateStores(
        String serverUrl,
        String schema,
        String user,
        String password,
        String redisUrl,
        String redisPrefix,
        String redisClusterNodes) {

    /** The stores of the README and of the apps' application.yaml, where MYSQL_URL and REDIS_URL are unset. */
    public static final String MYSQL_URL = "jdbc:mysql://127.0.0.1:3306/flashsale?createDatabaseIfNotExist=true";

    public static final String REDIS_URL = "redis://127.0.0.1:6379";

    private static final Pattern JDBC_URL = Pattern.compile("(jdbc:[a-z]+://[^/?]+)(/[^?]*)?(\\?.*)?");

    /** A private schema and prefix for one run. */
    public static PrivateStores fresh() {
        String id =
                UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
        return new PrivateStores(
                env("MYSQL_URL", MYSQL_URL),
                "fs_bench_" + id,
                env("MYSQL_USER", "flashsale"),
                mysqlPassword(),
                env("REDIS_URL", REDIS_URL),
                "fsbench_" + id,
                null);
    }

    /** The same schema and prefix, the Redis keys on the server of {@code url} (e.g. a Redis of the run's own). */
    public PrivateStores onRedis(String url) {
        return new PrivateStores(serverUrl, schema, user, password, url, redisPrefix, null);
    }

    /** The same schema, prefix and MySQL user on the server of {@code url} ({@code jdbc:mysql://host:port}). */
    public PrivateStores onMysql(String url) {
        return new PrivateStores(url, schema, user, password, redisUrl, redisPrefix, redisClusterNodes);
    }

    /** The same schema and prefix, the Redis keys on the cluster of {@code nodes} ({@code host:port,...}). */
    public PrivateStores onCluster(String nodes) {
        return new PrivateStores(serverUrl, schema, user, password, redisUrl, redisPrefix, nodes);
    }

    public String jdbcUrl() {
        Matcher m = matcher(serverUrl);
        String params = m.group(3) == null ? "" : "&" + m.group(3).substring(1);
        return m.group(1) + "/" + schema + "?createDatabaseIfNotExist=true" + params;
    }

    /** A connection to the schema, as the stack's owner (the caller closes it). */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), user, password);
    }

    /** Drops the schema and every Redis key under the prefix. Only for stores made by {@link #fresh()}. */
    public void drop() {
        try (Connection c = connect()) {
            c.createStatement().execute("DROP DATABASE IF EXISTS `" + schema + "`");
        } catch (SQLException e) {
            System.err.println("could not drop schema " + schema + ": " + e.getMessage());
        }
        if (redisClusterNodes != null) {
            RedisClusterClient client = RedisClusterClient.create(Arrays.stream(redisClusterNodes.split(","))
                    .map(node -> RedisURI.create("redis://" + node))
                    .toList());
            try (StatefulRedisClusterConnection<String, String> redis = client.connect()) {
                unlinkAll(redis.sync(), redisPrefix);
            } finally {
                client.shutdown();
            }
            return;
        }
        RedisClient client = RedisClient.create(redisUrl);
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            unlinkAll(redis.sync(), redisPrefix);
        } finally {
            client.shutdown();
        }
    }

    /**
     * SCAN (on a cluster: every master in turn) and UNLINK, 1000 keys at a time, of the keys under
     * {@code prefix}; how many went.
     */
    public static long unlinkAll(RedisKeyCommands<String, String> redis, String prefix) {
        ScanIterator<String> keys =
                ScanIterator.scan(redis, ScanArgs.Builder.matches(prefix + ":*").limit(1000));
        List<String> batch = new ArrayList<>();
        long unlinked = 0;
        while (keys.hasNext()) {
            batch.add(keys.next());
            if (batch.size() == 1000 || !keys.hasNext()) {
                unlinked += redis.unlink(batch.toArray(String[]::new));
                batch.clear();
            }
        }
        return unlinked;
    }

    /** MYSQL_PASSWORD, {@code flashsale} when unset; set and empty means no password. */
    public static String mysqlPassword() {
        String password = System.getenv("MYSQL_PASSWORD");
        return password == null ? "flashsale" : password;
    }

    private static Matcher matcher(String url) {
        Matcher m = JDBC_URL.matcher(url);
        if (!m.matches()) {
            throw new IllegalArgumentException("MYSQL_URL is not jdbc:mysql://host:port[/db][?params]: " + url);
        }
        return m;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
