package io.flashsale.launcher.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DevServerTest {

    private static final List<String> JAVA = List.of("java", "-jar", "launcher.jar");

    @Test
    void startsTheRealServerWithItsStateFileUiAndThePurchaseSearchAttributes() {
        DevServer.Options options = DevServer.Options.onPort(7299).withUi(8299).withDbFile(Path.of("/tmp/t.db"));

        DevServer.Command command =
                DevServer.command(options, Optional.of(Path.of("/opt/temporal")), JAVA, message -> {});

        assertThat(command.kind()).isEqualTo(DevServer.Kind.CLI);
        assertThat(String.join(" ", command.arguments()))
                .startsWith("/opt/temporal server start-dev --ip 127.0.0.1 --port 7299 --namespace default")
                .contains("--ui-ip 127.0.0.1 --ui-port 8299", "--db-filename /tmp/t.db")
                .contains(
                        "--search-attribute SaleId=Keyword",
                        "--search-attribute UserId=Keyword",
                        "--search-attribute PurchaseStatus=Keyword")
                .doesNotContain("--headless");
    }

    @Test
    void persistsThroughAWriteAheadLogAndNeverRefreshesTheSearchAttributeCacheOnRead() {
        DevServer.Options options = DevServer.Options.onPort(7299).withDbFile(Path.of("/tmp/t.db"));

        String command = String.join(" ", DevServer.cliCommand(Path.of("temporal"), options));

        assertThat(command)
                .contains(
                        "--sqlite-pragma journal_mode=wal",
                        "--sqlite-pragma synchronous=normal",
                        "--dynamic-config-value system.forceSearchAttributesCacheRefreshOnRead=false");
        assertThat(String.join(" ", DevServer.cliCommand(Path.of("temporal"), DevServer.Options.onPort(7299))))
                .as("in memory: no file to tune")
                .doesNotContain("--sqlite-pragma");
    }

    @Test
    void runsHeadlessAndInMemoryUnlessToldOtherwise() {
        List<String> arguments = DevServer.command(
                        DevServer.Options.onPort(7299), Optional.of(Path.of("temporal")), JAVA, message -> {})
                .arguments();

        assertThat(arguments).contains("--headless").doesNotContain("--db-filename", "--ui-port");
    }

    @Test
    void fallsBackToTheJavaTestServerOnlyWithoutACliAndSaysSo() {
        List<String> said = new ArrayList<>();

        DevServer.Command command =
                DevServer.command(DevServer.Options.onPort(7299), Optional.empty(), JAVA, said::add);

        assertThat(command.kind()).isEqualTo(DevServer.Kind.TEST_SERVER);
        assertThat(command.arguments())
                .containsExactly("java", "-jar", "launcher.jar", "test-server", "default", "7299");
        assertThat(said).singleElement().asString().contains("Java test server", "no Web UI");
    }
}
