package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

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
    /** The documented dev default of FLASHSALE_JWT_SECRET (api's application.yaml). */
    private static final String DEV_SECRET = "flashsale-dev-secret-change-me";

    private static ComposeFile stack;
    private static ComposeFile dev;

    @BeforeAll
    static void readComposeFiles() throws IOException {
        stack = ComposeFile.read(ROOT.resolve("docker-compose.yml"));
        dev = ComposeFile.read(ROOT.resolve("docker-compose.dev.yml"));
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
                        "temporal MYSQL_PWD",
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
        String temporalUser = stack.environment("temporal").get("MYSQL_USER");

        assertThat(stack.databaseUsers().values()).isNotEmpty().noneMatch("root"::equalsIgnoreCase);
        assertThat(APPS).allSatisfy(app -> assertThat(stack.environment(app))
                .containsEntry("MYSQL_USER", appUser)
                .hasEntrySatisfying("MYSQL_URL", url -> assertThat(url)
                        .matches("jdbc:mysql://mysql:3306/" + mysql.get("MYSQL_DATABASE") + "(\\?.*)?")));
        assertThat(temporalUser).isNotBlank().isNotEqualTo(appUser);
        assertThat(stack.environment("temporal-schema")).containsEntry("SQL_USER", temporalUser);
        assertThat(stack.services())
                .filteredOn(service -> !service.equals("mysql"))
                .allSatisfy(service -> assertThat(stack.environment(service).values())
                        .as(service)
                        .noneMatch(value -> value.contains("MYSQL_ROOT_PASSWORD")));
    }

    @Test
    void grantsTemporalsUserItsTwoSchemasOnly() throws IOException {
        String script = "deploy/mysql/temporal-user.sh";
        String temporalUser = stack.environment("temporal").get("MYSQL_USER");
        String sql = Files.readString(ROOT.resolve(script)).replace("\\`", "`"); // as the shell renders it
        List<String> grants = Pattern.compile("GRANT (.+) ON (\\S+) TO '([^']+)'")
                .matcher(sql)
                .results()
                .map(grant -> grant.group(1) + " ON " + grant.group(2) + " TO " + grant.group(3))
                .toList();

        assertThat(grants)
                .containsExactlyInAnyOrder(
                        "ALL ON `temporal`.* TO " + temporalUser,
                        "ALL ON `temporal\\_visibility`.* TO " + temporalUser);
        assertThat(stack.volumes("mysql")).contains("./" + script + ":/docker-entrypoint-initdb.d/temporal-user.sh:ro");
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
