package io.flashsale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Usage errors are answered before any call to the api (none answers on the port these tests name). */
class SaleCommandTest {

    private static final String NO_API = "http://127.0.0.1:1";

    @Test
    void refusesAMissingOrUnknownCommandWithTheUsage() {
        assertThat(sale()).satisfies(run -> {
            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.err()).contains("Missing required subcommand", "Usage: flashsale sale");
        });
        assertThat(sale("reopen", "s1")).satisfies(run -> {
            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.err()).contains("Unmatched arguments from index 3: 'reopen', 's1'");
        });
    }

    @Test
    void refusesMissingSalesAndUnitsThatAreNoPositiveNumbers() {
        assertThat(sale("close").err()).contains("Missing required parameter: 'SALE'");
        assertThat(sale("restock", "s1", "many").err()).contains("'many' is not a positive whole number");
        assertThat(sale("withdraw", "s1", "0").err()).contains("'0' is not a positive whole number");
        assertThat(sale("create", "--stock", "5").err()).contains("Missing required option: '--price=AMOUNT_MINOR'");
        assertThat(sale("show", "s1", "--api").err()).contains("Missing required parameter for option '--api' (URL)");
        assertThat(sale("close", "s1", "--api", NO_API, "--watch").exitCode()).isEqualTo(2);
    }

    @Test
    void takesTheApiAndTheUserBeforeOrAfterTheCommandTheLaterOneWinning() throws Exception {
        String closed =
                """
                {"id":"s1","name":"x","total":5,"available":5,"endsAt":"2030-01-01T10:00:00Z","changes":[]}""";
        try (FakeApi api = new FakeApi(Map.of("POST /api/sales/s1/close", closed))) {
            Cli.Run run = Cli.run("sale", "--api", NO_API, "--as", "amy", "close", "s1", "--api", api.url());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).startsWith("sale      s1 (x)");
            assertThat(api.asked()).singleElement().satisfies(call -> assertThat(subject(call))
                    .isEqualTo("amy"));
        }
    }

    @Test
    void saysWhenTheApiCannotBeReached() {
        Cli.Run run = sale("close", "s1", "--api", NO_API);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("flashsale sale close: cannot reach the api");
    }

    private static String subject(String call) throws Exception {
        String claims = call.substring(call.indexOf("Bearer ") + 7).split("\\.")[1];
        return new ObjectMapper()
                .readTree(Base64.getUrlDecoder().decode(claims))
                .path("sub")
                .asText();
    }

    private static Cli.Run sale(String... args) {
        String[] line = new String[args.length + 3];
        line[0] = "sale";
        line[1] = "--api";
        line[2] = NO_API;
        System.arraycopy(args, 0, line, 3, args.length);
        return Cli.run(line);
    }
}
