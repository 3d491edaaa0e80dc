package io.flashsale.launcher;

import io.flashsale.launcher.temporal.DevServer;
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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.ToLongFunction;
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
        PrivateStores configured = configured(System.getenv());
        return new PrivateStores(
                configured.serverUrl,
                "fs_bench_" + id,
                configured.user,
                configured.password,
                configured.redisUrl,
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

    /**
     * What a private stack's apps are given to reach these stores and Temporal. All load comes
     * from 127.0.0.1, so the api's per-address rate limit is off; the per-user limit stays.
     */
    public Map<String, String> environment(String temporalAddress) {
        Map<String, String> env = new HashMap<>(Map.of(
                "FLASHSALE_RATE_LIMIT_ADDRESS_CAPACITY", "0",
                "MYSQL_URL", jdbcUrl(),
                "MYSQL_USER", user,
                "MYSQL_PASSWORD", password,
                "REDIS_URL", redisUrl,
                "FLASHSALE_REDIS_PREFIX", redisPrefix,
                "TEMPORAL_ADDRESS", temporalAddress,
                "TEMPORAL_NAMESPACE", DevServer.NAMESPACE));
        if (redisClusterNodes != null) {
            env.put("REDIS_CLUSTER_NODES", redisClusterNodes);
        }
        return env;
    }

    public String jdbcUrl() {
        Matcher m = matcher(serverUrl);
        String params = m.group(3) == null ? "" : "&" + m.group(3).substring(1);
        return m.group(1) + "/" + schema + "?createDatabaseIfNotExist=true" + params;
    }

    /**
     * The stores of {@code env} as the apps see them, a blank variable meaning its default: the
     * schema of MYSQL_URL and the prefix FLASHSALE_REDIS_PREFIX, on REDIS_URL or REDIS_CLUSTER_NODES.
     * MYSQL_PASSWORD is {@code flashsale} when unset; set and empty, it means no password.
     */
    public static PrivateStores configured(Map<String, String> env) {
        Matcher m = matcher(env(env, "MYSQL_URL", MYSQL_URL).replaceFirst("^jdbc:mariadb:", "jdbc:mysql:"));
        String nodes = env(env, "REDIS_CLUSTER_NODES", "");
        return new PrivateStores(
                m.group(1) + (m.group(3) == null ? "" : m.group(3)),
                m.group(2) == null ? "" : m.group(2).substring(1),
                env(env, "MYSQL_USER", "flashsale"),
                env.getOrDefault("MYSQL_PASSWORD", "flashsale"),
                env(env, "REDIS_URL", REDIS_URL),
                env(env, "FLASHSALE_REDIS_PREFIX", "fs"),
                nodes.isEmpty() ? null : nodes);
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

    /** {@code host:port} of the MySQL server, for messages. */
    public String server() {
        String server = matcher(serverUrl).group(1).replaceFirst("^jdbc:[a-z]+://", "");
        return server.contains(":") ? server : server + ":3306";
    }

    /** A connection to the MySQL server without choosing (or creating) the schema; fails within 5 s. */
    private Connection connectToServer() throws SQLException {
        Matcher m = matcher(serverUrl);
        String params = m.group(3) == null ? "?" : m.group(3) + "&";
        return DriverManager.getConnection(m.group(1) + "/" + params + "connectTimeout=5000", user, password);
    }

    public boolean schemaExists() throws SQLException {
        try (Connection c = connectToServer();
                PreparedStatement query =
                        c.prepareStatement("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?")) {
            query.setString(1, schema);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() && rows.getInt(1) > 0;
            }
        }
    }

    public void dropSchema() throws SQLException {
        try (Connection c = connectToServer()) {
            c.createStatement().execute("DROP DATABASE IF EXISTS `" + schema + "`");
        }
    }

    /** How many Redis keys are under the prefix. */
    public long keys() {
        return onRedis(redis -> scan(redis, batch -> batch.size()));
    }

    /** UNLINKs every Redis key under the prefix; how many went. */
    public long unlinkKeys() {
        return onRedis(redis -> scan(redis, batch -> redis.unlink(batch.toArray(String[]::new))));
    }

    /** SCAN (on a cluster: every master in turn) of the keys under the prefix, 1000 at a time; the sum of {@code batch}. */
    private long scan(RedisKeyCommands<String, String> redis, ToLongFunction<List<String>> batch) {
        ScanIterator<String> keys = ScanIterator.scan(
                redis, ScanArgs.Builder.matches(redisPrefix + ":*").limit(1000));
        List<String> keysOfBatch = new ArrayList<>();
        long sum = 0;
        while (keys.hasNext()) {
            keysOfBatch.add(keys.next());
            if (keysOfBatch.size() == 1000 || !keys.hasNext()) {
                sum += batch.applyAsLong(keysOfBatch);
                keysOfBatch.clear();
            }
        }
        return sum;
    }

    private long onRedis(Function<RedisKeyCommands<String, String>, Long> work) {
        if (redisClusterNodes != null) {
            RedisClusterClient client = RedisClusterClient.create(Arrays.stream(redisClusterNodes.split(","))
                    .map(node -> RedisURI.create("redis://" + node))
                    .toList());
            try (StatefulRedisClusterConnection<String, String> redis = client.connect()) {
                return work.apply(redis.sync());
            } finally {
                client.shutdown();
            }
        }
        RedisClient client = RedisClient.create(redisUrl);
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            return work.apply(redis.sync());
        } finally {
            client.shutdown();
        }
    }

    private static Matcher matcher(String url) {
        Matcher m = JDBC_URL.matcher(url);
        if (!m.matches()) {
            throw new IllegalArgumentException("MYSQL_URL is not jdbc:mysql://host:port[/db][?params]: " + url);
        }
        return m;
    }

    private static String env(Map<String, String> env, String name, String fallback) {
        String value = env.get(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
