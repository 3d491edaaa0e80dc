package io.flashsale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.testkit.Tokens;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenCommandTest {

    @Test
    void printsABuyerTokenIssuedNowForAnHourSignedWithTheSecretOfTheEnvironment() throws Exception {
        long before = Instant.now().getEpochSecond();
        Cli.Run run = Cli.run("token", "--user", "ann");

        assertThat(run.exitCode()).as(run.err()).isZero();
        String token = run.out().strip();
        JsonNode claims = claims(token);
        assertThat(claims.path("sub").asText()).isEqualTo("ann");
        assertThat(claims.path("scope").asText()).isEqualTo("buyer");
        assertThat(claims.path("iat").asLong()).isBetween(before, Instant.now().getEpochSecond());
        assertThat(claims.path("exp").asLong() - claims.path("iat").asLong()).isEqualTo(3600);
        Map<String, Object> signed = new LinkedHashMap<>();
        signed.put("sub", "ann");
        signed.put("scope", "buyer");
        signed.put("iat", claims.path("iat").asLong());
        signed.put("exp", claims.path("exp").asLong());
        assertThat(token).isEqualTo(Tokens.fromEnvironment().sign(signed));
    }

    @Test
    void adminAndPaymentsScopesAndALifetimeOfItsOwn() throws Exception {
        JsonNode admin = claims(Cli.run("token", "--user", "ops", "--admin", "--ttl", "60")
                .out()
                .strip());
        JsonNode payments = claims(
                Cli.run("token", "--user", "shop", "--scope", "payments").out().strip());

        assertThat(admin.path("scope").asText()).isEqualTo("admin");
        assertThat(admin.path("exp").asLong() - admin.path("iat").asLong()).isEqualTo(60);
        assertThat(payments.path("sub").asText()).isEqualTo("shop");
        assertThat(payments.path("scope").asText()).isEqualTo("payments");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--admin                          | Missing required option: '--user=U'",
                "--user ann --scope root          | Invalid value for option '--scope'",
                "--user ann --admin --scope buyer | --admin is --scope admin, not --scope buyer",
                "--user ann --ttl 0               | Invalid value for option '--ttl': '0' is not a positive whole number",
                "--user ann --ttl soon            | Invalid value for option '--ttl': 'soon' is not a positive whole number",
                "--user ann extra                 | Unmatched argument at index 3: 'extra'",
                "--user                           | Missing required parameter for option '--user' (U)"
            })
    void refusesBadArgumentsWithUsageAndExit2PrintingNoToken(String args, String message) {
        Cli.Run run = Cli.run(("token " + args).split(" "));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith(message).contains("Usage: flashsale token ");
    }

    private static JsonNode claims(String token) throws Exception {
        return new ObjectMapper().readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
    }
}
