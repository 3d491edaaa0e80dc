package io.flashsale.launcher.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class DevServerTest {

    private static final DevServer.Options IN_MEMORY = new DevServer.Options("127.0.0.1", 7299, 0, null, "default", 0);

    @Test
    void startsTheRealServerWithItsStateFileUiAndThePurchaseSearchAttributes() {
        DevServer.Options options = new DevServer.Options("127.0.0.1", 7299, 8299, Path.of("/tmp/t.db"), "default", 0);

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
        DevServer.Options options = new DevServer.Options("127.0.0.1", 7299, 0, Path.of("/tmp/t.db"), "default", 0);

        String command = String.join(" ", DevServer.cliCommand(Path.of("temporal"), options));

        assertThat(command)
                .contains(
                        "--sqlite-pragma journal_mode=wal",
                        "--sqlite-pragma synchronous=normal",
                        "--dynamic-config-value system.forceSearchAttributesCacheRefreshOnRead=false");
        assertThat(String.join(" ", DevServer.cliCommand(Path.of("temporal"), IN_MEMORY)))
                .as("in memory: no file to tune")
                .doesNotContain("--sqlite-pragma");
    }

    @Test
    void runsHeadlessAndInMemoryUnlessToldOtherwise() {
        List<String> arguments = DevServer.cliCommand(Path.of("temporal"), IN_MEMORY);

        assertThat(arguments).contains("--headless").doesNotContain("--db-filename", "--ui-port");
    }
}
