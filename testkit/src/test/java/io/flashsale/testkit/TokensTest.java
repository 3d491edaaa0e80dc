package io.flashsale.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import org.junit.jupiter.api.Test;

class TokensTest {

    @Test
    void signsTheClaimsWithHs256OverTheSecret() throws Exception {
        String token = new Tokens("a-secret-of-at-least-thirty-two-bytes!!").sign(Map.of("sub", "ann"));

        String[] parts = token.split("\\.");
        assertThat(decoded(parts[0])).isEqualTo("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
        assertThat(decoded(parts[1])).isEqualTo("{\"sub\":\"ann\"}");
        assertThat(parts[2]).isEqualTo(signature("a-secret-of-at-least-thirty-two-bytes!!", parts[0] + "." + parts[1]));
    }

    @Test
    void writesNumbersListsAndEscapedStrings() {
        Map<String, Object> claims = Tokens.claims("a\"b\\c\n", "admin", Instant.ofEpochSecond(7_200));
        claims.put("aud", List.of("x", "y"));

        String token = new Tokens(DevSecrets.jwt()).sign(claims);

        assertThat(decoded(token.split("\\.")[1]))
                .isEqualTo("{\"sub\":\"a\\\"b\\\\c\\n\",\"scope\":\"admin\",\"iat\":3600,\"exp\":7200,"
                        + "\"aud\":[\"x\",\"y\"]}");
    }

    private static String decoded(String part) {
        return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
    }

    private static String signature(String secret, String input) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
    }
}
