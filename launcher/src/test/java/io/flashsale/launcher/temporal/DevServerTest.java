package io.flashsale.launcher.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DevServerTest {

    @Test
    void startsTheRealServerWithItsStateFileUiAndThePurchaseSearchAttributes() {
        DevServer.Options options = DevServer.Options.onPort(7299).withUi(8299).withDbFile(Path.of("/tmp/t.db"));

        List<String> command = DevServer.cliCommand(Path.of("/opt/temporal"), options);

        assertThat(String.join(" ", command))
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
        List<String> arguments = DevServer.cliCommand(Path.of("temporal"), DevServer.Options.onPort(7299));

        assertThat(arguments).contains("--headless").doesNotContain("--db-filename", "--ui-port");
    }

    @Test
    void runsTheJavaTestServerOnThisClassPathWhenAskedFor() {
        List<String> command = DevServer.testServerCommand(DevServer.Options.onPort(7299));

        assertThat(command.subList(command.size() - 3, command.size()))
                .containsExactly(DevTemporalServer.class.getName(), "default", "7299");
        assertThat(command).contains("-cp", System.getProperty("java.class.path"));
    }
}
