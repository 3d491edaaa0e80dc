package io.flashsale.launcher.local;

import io.flashsale.launcher.PrivateStores;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/flashsale reset}: SCAN and UNLINK of the prefix's keys only, nothing else of that Redis. */
@Command(
        name = "reset",
        mixinStandardHelpOptions = true,
        description = "Delete the dev data to start over: the MySQL schema of MYSQL_URL, the Redis keys"
                + " FLASHSALE_REDIS_PREFIX:* (nothing else of that Redis) and the dev Temporal's .run/temporal.db."
                + " Refused while a process 'up' started runs.")
final class Reset implements Callable<Integer> {

    private static final Pattern MYSQL = Pattern.compile("jdbc:(mysql|mariadb)://([^/?,@]+)/([^?]*)(\\?.*)?");
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_]+");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_:.-]{1,40}");

    @Option(names = "--yes", description = "Do not ask to type yes first.")
    boolean yes;

    private LocalConfig config;
    private Map<String, String> env;

    @Override
    public Integer call() throws Exception {
        return LocalCommands.refusable(() -> {
            config = LocalCommands.config();
            env = System.getenv();
            run();
            return 0;
        });
    }

    private void run() throws Exception {
        refuseWhileRunning();
        if (env.containsKey("REDIS_CLUSTER_NODES")
                && !env.get("REDIS_CLUSTER_NODES").isBlank()) {
            throw new Refused("reset: works on the single Redis of REDIS_URL, not on REDIS_CLUSTER_NODES");
        }
        String prefix = env.getOrDefault("FLASHSALE_REDIS_PREFIX", "fs");
        if (!PREFIX.matcher(prefix).matches()) {
            throw new Refused("reset: FLASHSALE_REDIS_PREFIX '" + prefix + "' is not a key prefix");
        }
        String url = env.getOrDefault("MYSQL_URL", PrivateStores.MYSQL_URL);
        Matcher mysql = MYSQL.matcher(url);
        if (!mysql.matches()) {
            throw new Refused("reset: MYSQL_URL is not jdbc:mysql://HOST[:PORT]/DATABASE: " + url);
        }
        String schema = mysql.group(3);
        if (!PLAIN.matcher(schema).matches()) {
            throw new Refused("reset: database name '" + schema + "' of MYSQL_URL is not plain");
        }
        String server = mysql.group(2).contains(":") ? mysql.group(2) : mysql.group(2) + ":3306";
        RedisURI redisUri = RedisURI.create(env.getOrDefault("REDIS_URL", PrivateStores.REDIS_URL));
        String redisShown = redisUri.getHost() + ":" + redisUri.getPort() + "/" + redisUri.getDatabase();
        RedisClient client = RedisClient.create(redisUri);
        String parameters = mysql.group(4) == null ? "?" : mysql.group(4) + "&";
        try (Connection db = mysql(server, parameters);
                StatefulRedisConnection<String, String> redis = connect(client, redisShown)) {
            boolean schemaThere = schemaExists(db, schema);
            long keys = count(redis.sync(), prefix);
            Path temporalDb = config.run().path().resolve("temporal.db");
            List<Path> files = Stream.of("", "-wal", "-shm")
                    .map(suffix -> Path.of(temporalDb + suffix))
                    .filter(Files::exists)
                    .toList();
            String shownDb = config.run().shown(temporalDb);
            if (!schemaThere && keys == 0 && files.isEmpty()) {
                System.out.println("nothing to reset: no schema " + schema + " on " + server + ", no keys " + prefix
                        + ":* on redis://" + redisShown + ", no " + shownDb);
                return;
            }
            System.out.println("bin/flashsale reset deletes the dev data:");
            System.out.println("  MySQL     schema " + schema + " on " + server + (schemaThere ? "" : " (not there)"));
            System.out.println("  Redis     " + keys + " keys " + prefix + ":* on redis://" + redisShown);
            System.out.println("  Temporal  " + shownDb + " (with -wal, -shm): the dev server's workflows"
                    + (files.isEmpty() ? " (not there)" : ""));
            if (!yes && !confirmed()) {
                throw new Refused("reset: not confirmed; nothing was deleted");
            }
            if (schemaThere) {
                try (Statement drop = db.createStatement()) {
                    drop.execute("DROP DATABASE IF EXISTS `" + schema + "`");
                }
                System.out.println("dropped MySQL schema " + schema);
            }
            System.out.println(
                    "deleted " + PrivateStores.unlinkAll(redis.sync(), prefix) + " Redis keys " + prefix + ":*");
            if (!files.isEmpty()) {
                for (Path file : files) {
                    Files.delete(file);
                }
                System.out.println("deleted " + shownDb);
            }
            System.out.println("the next 'bin/flashsale up' starts on an empty schema, Redis and Temporal");
        } finally {
            client.shutdown();
        }
    }

    private void refuseWhileRunning() {
        List<String> running = new ArrayList<>();
        for (Component component : Component.all(config.run().path())) {
            config.run().pid(component).ifPresent(pid -> running.add(component.process() + " (pid " + pid + ")"));
        }
        if (!running.isEmpty()) {
            throw new Refused("reset: refused, still running: " + String.join(", ", running)
                    + "; stop them with 'bin/flashsale down' first");
        }
    }

    /** The server of MYSQL_URL, with its parameters (TLS, key retrieval, ...), no schema. */
    private Connection mysql(String server, String parameters) {
        String user = env.getOrDefault("MYSQL_USER", "flashsale");
        try {
            return DriverManager.getConnection(
                    "jdbc:mysql://" + server + "/" + parameters + "connectTimeout=5000",
                    user,
                    PrivateStores.mysqlPassword());
        } catch (SQLException e) {
            throw new Refused("reset: cannot reach MySQL at " + server + " as " + user + ": " + e.getMessage());
        }
    }

    private static StatefulRedisConnection<String, String> connect(RedisClient client, String shown) {
        try {
            return client.connect();
        } catch (RuntimeException e) {
            throw new Refused("reset: cannot reach Redis at redis://" + shown);
        }
    }

    private static boolean schemaExists(Connection db, String schema) throws SQLException {
        try (PreparedStatement query =
                db.prepareStatement("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?")) {
            query.setString(1, schema);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() && rows.getInt(1) > 0;
            }
        }
    }

    private static long count(RedisCommands<String, String> redis, String prefix) {
        ScanIterator<String> keys =
                ScanIterator.scan(redis, ScanArgs.Builder.matches(prefix + ":*").limit(1000));
        long count = 0;
        while (keys.hasNext()) {
            keys.next();
            count++;
        }
        return count;
    }

    private static boolean confirmed() throws IOException {
        System.out.print("Type yes to delete them: ");
        System.out.flush();
        String answer = new BufferedReader(new InputStreamReader(System.in)).readLine();
        System.out.println();
        return "yes".equals(answer);
    }
}
