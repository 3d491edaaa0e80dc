package io.flashsale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Usage errors are answered before any call to the api (none answers on the port these tests name). */
class SaleCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void refusesAMissingOrUnknownCommandWithTheUsage() throws Exception {
        assertThat(run()).isEqualTo(2);
        assertThat(err()).contains("a command is required", "usage: bin/flashsale sale");
        assertThat(run("reopen", "s1")).isEqualTo(2);
        assertThat(err()).contains("unknown command reopen");
    }

    @Test
    void refusesMissingSalesAndUnitsThatAreNoPositiveNumbers() throws Exception {
        assertThat(run("close")).isEqualTo(2);
        assertThat(err()).contains("SALE is required");
        assertThat(run("restock", "s1", "many")).isEqualTo(2);
        assertThat(err()).contains("N must be a positive whole number");
        assertThat(run("withdraw", "s1", "0")).isEqualTo(2);
        assertThat(run("create", "--stock", "5")).isEqualTo(2);
        assertThat(err()).contains("--price must be a whole number");
        assertThat(run("show", "s1", "--api")).isEqualTo(2);
        assertThat(err()).contains("--api needs a value");
    }

    @Test
    void saysWhenTheApiCannotBeReached() throws Exception {
        assertThat(run("close", "s1", "--api", "http://127.0.0.1:1")).isEqualTo(1);
        assertThat(err()).contains("cannot reach the api");
    }

    private int run(String... args) throws InterruptedException {
        err.reset();
        return SaleCommand.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
