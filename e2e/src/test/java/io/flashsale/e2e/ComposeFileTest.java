package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.launcher.FlashSaleStack;
import io.flashsale.launcher.cluster.TemporalCluster;
import io.flashsale.testkit.DevSecrets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The docker compose stack is safe by default: docker-compose.yml and docker-compose.dev.yml read as
 * written, no Docker engine needed ({@code .ci/run} also has compose itself validate both).
 */
class ComposeFileTest {

    private static final Path ROOT = Path.of(System.getProperty("flashsale.root", ".."));
    private static final List<String> APPS = List.of("api", "worker");
    /** A variable compose refuses to run without: {@code ${NAME:?message}}, no default. */
    private static final Pattern REQUIRED = Pattern.compile("\\$\\{([A-Za-z0-9_]+):\\?[^}]*}");
    /** The dev secret of FLASHSALE_JWT_SECRET, public knowledge. */
    private static final String DEV_SECRET = DevSecrets.jwt();
    /** Temporal's database server. */
    private static final String POSTGRESQL = "postgresql";
    /** The superuser the postgres image creates when POSTGRES_USER is not set. */
    private static final String POSTGRES_SUPERUSER = "postgres";

    private static ComposeFile stack;
    private static ComposeFile dev;

    @BeforeAll
    static void readComposeFiles() throws IOException {
        stack = ComposeFile.read(ROOT.resolve("docker-compose.yml"));
        dev = ComposeFile.read(ROOT.resolve("docker-compose.dev.yml"));
    }

    @Test
    void imageRunsTheAppsWithTheJvmFlagsOfEveryLocalStack() throws IOException {
        Matcher options =
                Pattern.compile("ENV JAVA_OPTS=\"([^\"]*)\"").matcher(Files.readString(ROOT.resolve("Dockerfile")));

        assertThat(options.find()).isTrue();
        assertThat(List.of(options.group(1).split(" "))).containsAll(FlashSaleStack.JVM_DEFAULTS);
    }

    @Test
    void buildsTheApisImageWithTheApisCollectorAndTheWorkersWithG1() {
        assertThat(buildArguments("api"))
                .containsEntry("JAVA_COLLECTOR", String.join(" ", FlashSaleStack.API_COLLECTOR));
        assertThat(buildArguments("worker")).doesNotContainKey("JAVA_COLLECTOR");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> buildArguments(String service) {
        return (Map<String, Object>)
                ((Map<String, Object>) stack.service(service).get("build")).get("args");
    }

    @Test
    void publishesEveryPortOnLoopbackOnly() {
        List<String> published = new ArrayList<>();
        stack.services().forEach(service -> stack.publishedOn(service)
                .forEach(address -> published.add(service + " on '" + address + "'")));

        assertThat(published).isNotEmpty().allMatch(port -> port.endsWith(" on '127.0.0.1'"));
        assertThat(stack.services())
                .allSatisfy(service ->
                        assertThat(stack.service(service)).as(service).doesNotContainEntry("network_mode", "host"));
    }

    @Test
    void refusesToRunWithoutEverySecretAndOffersNoDefault() {
        Map<String, String> secrets = stack.secrets();

        assertThat(secrets)
                .containsKeys(
                        "api FLASHSALE_JWT_SECRET",
                        "api FLASHSALE_PAYMENT_WEBHOOK_SECRET",
                        "mysql MYSQL_ROOT_PASSWORD",
                        "api MYSQL_PASSWORD",
                        "postgresql POSTGRES_PASSWORD",
                        "temporal POSTGRES_PWD",
                        "temporal-schema SQL_PASSWORD",
                        "redis REDISCLI_AUTH",
                        "prometheus FLASHSALE_METRICS_TOKEN",
                        "grafana GF_SECURITY_ADMIN_PASSWORD");
        assertThat(secrets)
                .allSatisfy((where, value) -> assertThat(value).as(where).matches(REQUIRED));
    }

    @Test
    void runsTheAppsWithTheProdProfileAndNoDevSecret() {
        assertThat(APPS)
                .allSatisfy(app ->
                        assertThat(stack.environment(app)).as(app).containsEntry("SPRING_PROFILES_ACTIVE", "prod"));
        assertThat(stack.text()).doesNotContain(DEV_SECRET);
    }

    @Test
    void devOverrideSwitchesTheAppsToTheDevProfileAndPublishesNoMorePorts() {
        assertThat(APPS)
                .allSatisfy(
                        app -> assertThat(dev.environment(app)).as(app).containsEntry("SPRING_PROFILES_ACTIVE", "dev"));
        assertThat(dev.services())
                .allSatisfy(
                        service -> assertThat(dev.service(service)).as(service).doesNotContainKey("ports"));
    }

    @Test
    void sendsTheWebUiCsrfCookieOverPlainHttpOnlyWithTheDevOverride() {
        String insecureCookie = "TEMPORAL_CSRF_COOKIE_INSECURE";

        assertThat(stack.environment("temporal-ui").getOrDefault(insecureCookie, "false"))
                .isEqualTo("false");
        assertThat(dev.environment("temporal-ui")).containsEntry(insecureCookie, "true");
    }

    @Test
    void connectsTheAppsAndTemporalAsTheirOwnDatabaseUsersNeverRoot() {
        Map<String, String> mysql = stack.environment("mysql");
        String appUser = mysql.get("MYSQL_USER"); // the mysql image grants it MYSQL_DATABASE only
        Map<String, String> temporal = stack.environment("temporal");
        String temporalUser = temporal.get("POSTGRES_USER");

        assertThat(stack.databaseUsers().values())
                .isNotEmpty()
                .noneMatch("root"::equalsIgnoreCase)
                .noneMatch(POSTGRES_SUPERUSER::equals);
        assertThat(APPS).allSatisfy(app -> assertThat(stack.environment(app))
                .containsEntry("MYSQL_USER", appUser)
                .hasEntrySatisfying("MYSQL_URL", url -> assertThat(url)
                        .matches("jdbc:mysql://mysql:3306/" + mysql.get("MYSQL_DATABASE") + "(\\?.*)?")));
        assertThat(temporalUser).isNotBlank().isNotEqualTo(appUser).isNotEqualTo(POSTGRES_SUPERUSER);
        assertThat(stack.environment("temporal-schema"))
                .containsEntry("SQL_USER", temporalUser)
                .containsEntry("SQL_PASSWORD", temporal.get("POSTGRES_PWD"));
        assertThat(stack.services())
                .filteredOn(service -> !service.equals("mysql"))
                .allSatisfy(service -> assertThat(stack.environment(service).values())
                        .as(service)
                        .noneMatch(value -> value.contains("MYSQL_ROOT_PASSWORD")));
    }

    @Test
    void keepsMySqlForTheAppAlone() {
        assertThat(stack.services())
                .filteredOn(service -> stack.dependsOn(service).containsKey("mysql")
                        || stack.environment(service).keySet().stream().anyMatch(name -> name.startsWith("MYSQL_")))
                .containsExactlyInAnyOrder("mysql", "api", "worker");
        assertThat(stack.environment("mysql").keySet()).noneMatch(name -> name.contains("TEMPORAL"));
        assertThat(stack.volumes("mysql")).noneMatch(volume -> volume.contains("docker-entrypoint-initdb.d"));
    }

    @Test
    void persistsTemporalOnAPostgresqlOfItsOwnWithThePostgres12Plugin() throws IOException {
        Map<String, String> server = stack.environment("temporal");
        Map<String, String> schema = stack.environment("temporal-schema");
        String script = "deploy/temporal/setup-schema.sh";
        String setup = Files.readString(ROOT.resolve(script));

        assertThat(stack.service(POSTGRESQL)).containsEntry("image", "postgres:16");
        assertThat(server)
                .containsEntry("DB", "postgres12")
                .containsEntry("POSTGRES_SEEDS", POSTGRESQL)
                .containsEntry("DB_PORT", "5432")
                .containsEntry("DBNAME", "temporal")
                .containsEntry("VISIBILITY_DBNAME", "temporal_visibility");
        assertThat(server.keySet()).noneMatch(name -> name.startsWith("MYSQL_"));
        assertThat(schema)
                .containsEntry("SQL_PLUGIN", server.get("DB"))
                .containsEntry("SQL_HOST", server.get("POSTGRES_SEEDS"))
                .containsEntry("SQL_PORT", server.get("DB_PORT"));
        // each database from the schema embedded in temporal-sql-tool, as module launcher does
        assertThat(stack.volumes("temporal-schema")).contains("./" + script + ":/etc/flashsale/setup-schema.sh:ro");
        assertThat(setup)
                .contains("update-schema --schema-name \"postgresql/v12/$2\"")
                .contains("apply_schema " + server.get("DBNAME") + " temporal\n")
                .contains("apply_schema " + server.get("VISIBILITY_DBNAME") + " visibility\n");
    }

    @Test
    void keepsTemporalsDataInANamedVolumeAndStartsTemporalOnceItIsHealthy() {
        assertThat(stack.volumes(POSTGRESQL)).contains("postgresql-data:/var/lib/postgresql/data");
        assertThat(stack.namedVolumes()).contains("postgresql-data");
        // TCP: the image's first-start server listens on its socket only
        assertThat(stack.healthcheck(POSTGRESQL)).contains("pg_isready", "127.0.0.1");
        assertThat(List.of("temporal-schema", "temporal"))
                .allSatisfy(service ->
                        assertThat(stack.dependsOn(service)).as(service).containsEntry(POSTGRESQL, "service_healthy"));
    }

    @Test
    void createsTemporalsRoleWithoutSuperuserRightsAndTakesThePasswordFromTheSuperuser() throws IOException {
        String script = "deploy/postgresql/temporal-role.sh";
        Map<String, String> temporal = stack.environment("temporal");
        String sql = Files.readString(ROOT.resolve(script));
        List<String> roles = Pattern.compile("CREATE ROLE (\\S+) ([^;]*);")
                .matcher(sql)
                .results()
                .map(role -> role.group(1) + " " + role.group(2))
                .toList();

        // may create its two databases, which it then owns, and nothing more
        assertThat(roles).containsExactly(temporal.get("POSTGRES_USER") + " LOGIN CREATEDB PASSWORD :'password'");
        // the script hands the superuser's first password to the role, so they are the same variable
        assertThat(stack.environment(POSTGRESQL))
                .containsEntry("POSTGRES_PASSWORD", temporal.get("POSTGRES_PWD"))
                .doesNotContainKey("POSTGRES_USER");
        assertThat(sql).contains("ALTER ROLE " + POSTGRES_SUPERUSER + " PASSWORD NULL;");
        assertThat(stack.volumes(POSTGRESQL))
                .contains("./" + script + ":/docker-entrypoint-initdb.d/temporal-role.sh:ro");
    }

    @Test
    void givesPostgresqlAConnectionForEveryPoolOfTheServer() {
        Map<String, String> server = stack.environment("temporal");
        // frontend, history, matching and worker in one process, each with pools of its own
        int connections = 4
                * (Integer.parseInt(server.getOrDefault("SQL_MAX_CONNS", "20"))
                        + Integer.parseInt(server.getOrDefault("SQL_VIS_MAX_CONNS", "10")));
        List<String> command = stack.command(POSTGRESQL);
        int maxConnections = command.stream()
                .filter(word -> word.startsWith("max_connections="))
                .map(word -> Integer.parseInt(word.substring("max_connections=".length())))
                .findFirst()
                .orElse(100); // PostgreSQL's default

        assertThat(maxConnections).as(String.join(" ", command)).isGreaterThan(connections);
    }

    @Test
    void protectsRedisWithThePasswordTheAppsConnectWith() {
        List<String> command = stack.command("redis");
        assertThat(command).contains("--requirepass");
        String password = command.get(command.indexOf("--requirepass") + 1);
        Matcher required = REQUIRED.matcher(password);

        assertThat(required.matches())
                .as("redis-server --requirepass " + password)
                .isTrue();
        assertThat(APPS).allSatisfy(app -> assertThat(stack.environment(app).get("REDIS_URL"))
                .as(app)
                .matches("redis://:\\$\\{" + required.group(1) + ":\\?[^}]*}@redis:6379"));
    }

    @Test
    void runsTheAppsOnAMasterBehindThreeSentinelsAndWaitsForItsReplica() {
        List<String> replica = stack.command("redis-replica");
        assertThat(replica).containsSubsequence("--replicaof", "redis", "6379");
        assertThat(stack.services()).contains("redis-sentinel-1", "redis-sentinel-2", "redis-sentinel-3");
        assertThat(APPS).allSatisfy(app -> {
            Map<String, String> environment = stack.environment(app);
            assertThat(environment.get("REDIS_SENTINEL_NODES"))
                    .isEqualTo("redis-sentinel-1:26379,redis-sentinel-2:26379,redis-sentinel-3:26379");
            assertThat(environment.get("REDIS_SENTINEL_MASTER")).isEqualTo("flashsale");
            assertThat(environment.get("FLASHSALE_REDIS_REPLICATION_REPLICAS")).isEqualTo("1");
        });
    }

    @Test
    void pinsEveryImageToAVersion() {
        assertThat(stack.services()).allSatisfy(service -> {
            Object image = stack.service(service).get("image");
            if (image == null) {
                assertThat(stack.service(service))
                        .as(service + " has neither image nor build")
                        .containsKey("build");
            } else {
                assertThat(ComposeFile.tagOf(ComposeFile.withDefaults("" + image)))
                        .as(service + " image " + image)
                        .isNotEmpty()
                        .isNotEqualTo("latest");
            }
        });
    }

    @Test
    void checksTheHealthOfEveryLongRunningService() {
        Set<String> oneShot = stack.awaitedToCompletion();

        assertThat(stack.services())
                .filteredOn(service -> !oneShot.contains(service))
                .allSatisfy(service -> assertThat(stack.healthcheck(service))
                        .as(service + " healthcheck test")
                        .isNotEmpty()
                        .doesNotContain("NONE"));
        assertThat(oneShot)
                .allSatisfy(service -> assertThat("" + stack.service(service).get("restart"))
                        .as(service + " restart policy")
                        .startsWith("on-failure"));
    }

    @Test
    void runsTheTemporalReleaseTheTestsRun() {
        String release = TemporalCluster.SERVER_VERSION.replaceFirst("^v", "");
        Set<String> adminTools = Set.of("temporal-schema", "temporal-init");

        assertThat(ComposeFile.withDefaults("" + stack.service("temporal").get("image")))
                .isEqualTo("temporalio/server:" + release);
        assertThat(adminTools).allSatisfy(service -> assertThat(
                        ComposeFile.withDefaults("" + stack.service(service).get("image")))
                .as(service)
                // 1.29 images carry the tctl and CLI versions in the tag, later ones the release alone
                .matches(Pattern.quote("temporalio/admin-tools:" + release) + "(-tctl-.+)?"));
    }

    @Test
    void fixesTheHistoryShardCountInTheFile() {
        assertThat(stack.environment("temporal").get("NUM_HISTORY_SHARDS"))
                .as("the first start stores it and the server ignores any other value later")
                .isEqualTo("512");
    }

    @Test
    void loadsItsDynamicConfigWithoutForcedSearchAttributeRefresh() throws IOException {
        String path = stack.environment("temporal").get("DYNAMIC_CONFIG_FILE_PATH");
        String file = "deploy/temporal/dynamicconfig.yaml";
        Map<String, Object> config = ComposeFile.yaml(Files.readString(ROOT.resolve(file)));

        assertThat(stack.volumes("temporal")).contains("./" + file + ":" + path + ":ro");
        assertThat(config)
                .containsKey("limit.maxIDLength")
                .doesNotContainKey("system.forceSearchAttributesCacheRefreshOnRead");
    }
}
