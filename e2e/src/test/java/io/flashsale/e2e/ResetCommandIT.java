package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.launcher.Processes;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.testing.TestStores;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * {@code bin/flashsale reset} on data of its own: a fresh MySQL schema ({@code MYSQL_URL}), a fresh
 * Redis key prefix ({@code FLASHSALE_REDIS_PREFIX}) next to the keys of another prefix that must
 * stay, and a run directory ({@code FLASHSALE_RUN_DIR}) holding a dev Temporal's SQLite files. Never
 * the developer's {@code flashsale} schema, {@code fs:} keys or {@code .run/}.
 */
class ResetCommandIT {

    private static final Pattern JDBC_URL = Pattern.compile("(jdbc:[a-z]+://[^/?]+)/([^?]+)(\\?.*)?");

    private final Map<String, String> environment = new HashMap<>();
    private String schema;
    private String prefix;
    private JdbcClient server;
    private LettuceConnectionFactory connections;
    private StringRedisTemplate redis;
    private RedisKeyProperties keys;
    private RedisKeyProperties neighbour;
    private Path run;

    @BeforeEach
    void ownData() throws Exception {
        Map<String, String> stores = new HashMap<>();
        TestStores.register((name, value) -> stores.put(name, "" + value.get()));
        String mysqlUrl = stores.get("spring.datasource.url");
        String user = stores.get("spring.datasource.username");
        String password = stores.get("spring.datasource.password");
        Matcher url = JDBC_URL.matcher(mysqlUrl);
        assertThat(url.matches()).as(mysqlUrl).isTrue();
        schema = url.group(2);
        server = JdbcClient.create(new DriverManagerDataSource(url.group(1) + "/", user, password));
        // createDatabaseIfNotExist=true in the URL makes the schema, as the api's first start does
        JdbcClient.create(new DriverManagerDataSource(mysqlUrl, user, password))
                .sql("CREATE TABLE sales (sale_id VARCHAR(64) PRIMARY KEY)")
                .update();

        URI redisUrl = URI.create(stores.get("spring.data.redis.url"));
        connections = new LettuceConnectionFactory(new RedisStandaloneConfiguration(
                redisUrl.getHost(), redisUrl.getPort() < 0 ? 6379 : redisUrl.getPort()));
        connections.afterPropertiesSet();
        connections.start();
        redis = new StringRedisTemplate(connections);
        prefix = stores.get("flashsale.redis.key-prefix");
        keys = new RedisKeyProperties(prefix);
        // another installation on the same Redis whose prefix starts like this one's
        neighbour = new RedisKeyProperties(prefix + "x");
        for (RedisKeyProperties installation : List.of(keys, neighbour)) {
            redis.opsForValue().set(installation.sale("s1").stock(), "5");
            redis.opsForSet().add(installation.sales(), "s1");
        }

        Path parent = Files.createDirectories(Path.of("target", "e2e-logs", "launcher"));
        run = Files.createTempDirectory(parent, "run-reset-").toAbsolutePath();
        for (String file : List.of("temporal.db", "temporal.db-wal", "temporal.db-shm")) {
            Files.writeString(run.resolve(file), "SQLite format 3");
        }
        Files.writeString(Files.createDirectories(run.resolve("logs")).resolve("api.log"), "api log\n");

        environment.putAll(Map.of(
                "MYSQL_URL", mysqlUrl,
                "MYSQL_USER", user,
                "MYSQL_PASSWORD", password,
                "REDIS_URL", redisUrl.toString(),
                "REDIS_CLUSTER_NODES", "",
                "FLASHSALE_REDIS_PREFIX", prefix,
                "FLASHSALE_RUN_DIR", run.toString()));
    }

    @AfterEach
    void dropTheRest() {
        redis.delete(List.of(
                keys.sale("s1").stock(), keys.sales(), neighbour.sale("s1").stock(), neighbour.sales()));
        server.sql("DROP DATABASE IF EXISTS " + schema).update();
        connections.destroy();
    }

    @Test
    void withYesDropsTheSchemaDeletesThePrefixsKeysAndTheTemporalDatabase() throws Exception {
        Launcher.Run reset = Launcher.run(environment, "", "reset", "--yes");

        assertThat(reset.exitCode()).as(reset.output()).isZero();
        assertEverythingDeleted();
        assertThat(redis.hasKey(neighbour.sale("s1").stock())).isTrue();
        assertThat(redis.hasKey(neighbour.sales())).isTrue();
        assertThat(run.resolve("logs").resolve("api.log")).exists();
        assertThat(reset.output())
                .contains("dropped MySQL schema " + schema)
                .contains("deleted 2 Redis keys " + prefix + ":*");
    }

    @Test
    void deletesNothingUntilYesIsTyped() throws Exception {
        Launcher.Run nothingTyped = Launcher.run(environment, "", "reset");
        Launcher.Run no = Launcher.run(environment, "no\n", "reset");

        for (Launcher.Run refused : List.of(nothingTyped, no)) {
            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(1);
            assertThat(refused.output())
                    .contains("schema " + schema)
                    .contains("Type yes to delete them")
                    .contains("reset: not confirmed; nothing was deleted");
            assertNothingDeleted();
        }

        Launcher.Run yes = Launcher.run(environment, "yes\n", "reset");

        assertThat(yes.exitCode()).as(yes.output()).isZero();
        assertEverythingDeleted();
    }

    @Test
    void refusesWhileAProcessUpStartedRuns() throws Exception {
        try (Processes processes = new Processes(Path.of("target", "e2e-logs", "launcher"), Duration.ofSeconds(30))) {
            // a live process recorded as the api, its pid and command as up records them
            Process api = processes.start("reset-fake-api-" + run.getFileName(), List.of("sleep", "300"), Map.of());
            Files.writeString(run.resolve("api.pid"), api.pid() + "\nsleep\0" + "300\n");

            Launcher.Run refused = Launcher.run(environment, "", "reset", "--yes");

            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(1);
            assertThat(refused.output())
                    .contains("reset: refused, still running: api (pid " + api.pid() + ")")
                    .contains("bin/flashsale down");
            assertNothingDeleted();
        }

        Launcher.Run afterItStopped = Launcher.run(environment, "", "reset", "--yes");

        assertThat(afterItStopped.exitCode()).as(afterItStopped.output()).isZero();
        assertEverythingDeleted();
    }

    private boolean schemaExists() {
        return server.sql("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?")
                        .param(schema)
                        .query(Integer.class)
                        .single()
                > 0;
    }

    private void assertNothingDeleted() {
        assertThat(schemaExists()).as("schema " + schema).isTrue();
        assertThat(redis.hasKey(keys.sale("s1").stock())).isTrue();
        assertThat(redis.hasKey(keys.sales())).isTrue();
        assertThat(run.resolve("temporal.db")).exists();
        assertThat(run.resolve("temporal.db-wal")).exists();
        assertThat(run.resolve("temporal.db-shm")).exists();
    }

    private void assertEverythingDeleted() {
        assertThat(schemaExists()).as("schema " + schema).isFalse();
        assertThat(redis.hasKey(keys.sale("s1").stock())).isFalse();
        assertThat(redis.hasKey(keys.sales())).isFalse();
        assertThat(run.resolve("temporal.db")).doesNotExist();
        assertThat(run.resolve("temporal.db-wal")).doesNotExist();
        assertThat(run.resolve("temporal.db-shm")).doesNotExist();
    }
}
