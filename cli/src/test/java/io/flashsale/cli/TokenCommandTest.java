package io.flashsale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.testkit.Tokens;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenCommandTest {

    private static final Tokens TOKENS = new Tokens("a-secret-of-at-least-thirty-two-bytes!!");
    private static final Instant NOW = Instant.ofEpochSecond(1_700_000_000);

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void printsABuyerTokenIssuedNowForAnHourByDefault() {
        assertThat(run("--user", "ann")).isZero();

        String token = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(claims(token))
                .isEqualTo("{\"sub\":\"ann\",\"scope\":\"buyer\",\"iat\":1700000000,\"exp\":1700003600}");
        Map<String, Object> signed = new LinkedHashMap<>();
        signed.put("sub", "ann");
        signed.put("scope", "buyer");
        signed.put("iat", 1_700_000_000L);
        signed.put("exp", 1_700_003_600L);
        assertThat(token).as("signed with the secret it was given").isEqualTo(TOKENS.sign(signed));
    }

    @Test
    void adminAndPaymentsScopesAndALifetimeOfItsOwn() {
        assertThat(run("--user", "ops", "--admin", "--ttl", "60")).isZero();
        assertThat(run("--user", "shop", "--scope", "payments")).isZero();

        String[] tokens = out.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertThat(claims(tokens[0]))
                .isEqualTo("{\"sub\":\"ops\",\"scope\":\"admin\",\"iat\":1700000000,\"exp\":1700000060}");
        assertThat(claims(tokens[1])).contains("\"sub\":\"shop\",\"scope\":\"payments\"");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--admin                          | --user U is required",
                "--user ann --scope root          | --scope must be buyer, admin or payments",
                "--user ann --admin --scope buyer | --scope must be buyer, admin or payments",
                "--user ann --ttl 0               | --ttl must be a positive number of seconds",
                "--user ann --ttl soon            | --ttl must be a positive number of seconds",
                "--user ann extra                 | unexpected extra",
                "--user                           | --user needs a value"
            })
    void refusesBadArgumentsWithUsageAndExit2PrintingNoToken(String args, String message) {
        assertThat(run(args.split(" "))).isEqualTo(2);

        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("flashsale token: " + message)
                .contains("usage: bin/flashsale token --user U");
    }

    private int run(String... args) {
        return TokenCommand.run(
                args,
                TOKENS,
                NOW,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static String claims(String token) {
        return new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
    }
}
