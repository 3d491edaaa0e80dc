package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.testkit.DevSecrets;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/flashsale token} as an operator runs it: the token on its last line is signed with the
 * dev secret every test and the dev api share ({@code DevSecrets}), or with {@code
 * FLASHSALE_JWT_SECRET} when that is set.
 */
class TokenCommandIT {

    @Test
    void signsWithTheDevSecretByDefault() throws Exception {
        String[] token =
                lastLine(Launcher.run(Map.of(), "", "token", "--user", "ann")).split("\\.");

        assertThat(decoded(token[1])).contains("\"sub\":\"ann\"", "\"scope\":\"buyer\"");
        assertThat(token[2]).isEqualTo(signature(DevSecrets.jwt(), token[0] + "." + token[1]));
    }

    @Test
    void signsWithTheSecretOfTheEnvironment() throws Exception {
        String secret = "an-operator-secret-of-more-than-32-bytes";
        String[] token = lastLine(
                        Launcher.run(Map.of("FLASHSALE_JWT_SECRET", secret), "", "token", "--user", "ops", "--admin"))
                .split("\\.");

        assertThat(decoded(token[1])).contains("\"sub\":\"ops\"", "\"scope\":\"admin\"");
        assertThat(token[2]).isEqualTo(signature(secret, token[0] + "." + token[1]));
    }

    private static String lastLine(Launcher.Run run) {
        assertThat(run.exitCode()).as(run.output()).isZero();
        List<String> lines = run.output().lines().toList();
        return lines.get(lines.size() - 1);
    }

    private static String decoded(String part) {
        return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
    }

    private static String signature(String secret, String input) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
    }
}
