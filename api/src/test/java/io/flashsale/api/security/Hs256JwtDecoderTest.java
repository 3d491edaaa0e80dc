package io.flashsale.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flashsale.api.ApiProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/** {@link Hs256JwtDecoder} accepts and refuses exactly what Spring's Nimbus decoder with the same key and rules does. */
class Hs256JwtDecoderTest {

    private static final String SECRET = "hs256-decoder-test-secret-0123456789abcdef";
    private static final SecretKey KEY = key(SECRET, "HmacSHA256");
    private static final ApiProperties.Jwt SETTINGS =
            new ApiProperties.Jwt(SECRET, "https://shop.example", "flashsale", Duration.ofSeconds(30), 0);
    private static final String HEADER = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
    private static final long EXP = Instant.now().plus(Duration.ofHours(1)).getEpochSecond();
    private static final String CLAIMS = claims("\"exp\":" + EXP);

    private final JwtDecoder decoder = new Hs256JwtDecoder(KEY, TokenRules.of(SETTINGS));
    private final JwtDecoder nimbus = nimbus();

    static Stream<Arguments> tokens() {
        long past = Instant.now().minus(Duration.ofHours(1)).getEpochSecond();
        long future = Instant.now().plus(Duration.ofMinutes(10)).getEpochSecond();
        String valid = signed(HEADER, CLAIMS);
        return Stream.of(
                accepted("a token of the key", valid),
                accepted("typ in lower case", signed("{\"alg\":\"HS256\",\"typ\":\"jwt\"}", CLAIMS)),
                accepted("no typ", signed("{\"alg\":\"HS256\"}", CLAIMS)),
                refused(
                        "another key's signature",
                        signed(HEADER, CLAIMS, key("another-secret-0123456789abcdef-xyz", "HmacSHA256"))),
                refused(
                        "a changed signature",
                        valid.substring(0, valid.length() - 2) + (valid.endsWith("AA") ? "BA" : "AA")),
                refused("changed claims", valid.replace(part(valid, 1), base64url(claims("\"exp\":" + (EXP + 1))))),
                refused("no signature (alg none)", base64url("{\"alg\":\"none\"}") + "." + base64url(CLAIMS) + "."),
                refused("HS512", signed("{\"alg\":\"HS512\"}", CLAIMS, key(SECRET, "HmacSHA512"))),
                refused("HS512 named, HS256 signed", signed("{\"alg\":\"HS512\"}", CLAIMS)),
                refused("none named, HS256 signed", signed("{\"alg\":\"none\"}", CLAIMS)),
                refused("a header of null", signed("null", CLAIMS)),
                refused("claims followed by more", signed(HEADER, CLAIMS + " {}")),
                refused("another typ", signed("{\"alg\":\"HS256\",\"typ\":\"at+jwt\"}", CLAIMS)),
                refused("a critical header", signed("{\"alg\":\"HS256\",\"crit\":[\"exp\"],\"exp\":1}", CLAIMS)),
                refused("two parts", base64url(HEADER) + "." + base64url(CLAIMS)),
                refused("five parts", valid + ".a.b"),
                refused("claims not base64url", base64url(HEADER) + ".!!!." + part(valid, 2)),
                refused("claims not an object", signed(HEADER, "[1]")),
                refused("no claims", signed(HEADER, "{}")),
                refused("exp not a time", signed(HEADER, claims("\"exp\":\"tomorrow\""))),
                refused("exp a numeric string", signed(HEADER, claims("\"exp\":\"" + EXP + "\""))),
                refused("nbf not a number", signed(HEADER, claims("\"exp\":" + EXP + ",\"nbf\":\"later\""))),
                refused(
                        "iss a number",
                        signed(HEADER, claims("\"exp\":" + EXP).replace("\"https://shop.example\"", "1"))),
                refused(
                        "aud with a number",
                        signed(HEADER, claims("\"exp\":" + EXP).replace("[\"flashsale\"]", "[\"flashsale\",1]"))),
                refused("iat a string", signed(HEADER, claims("\"exp\":" + EXP + ",\"iat\":\"now\""))),
                refused("expired", signed(HEADER, claims("\"exp\":" + past))),
                refused("no exp", signed(HEADER, claims("\"iat\":" + past))),
                refused("not before the future", signed(HEADER, claims("\"exp\":" + EXP + ",\"nbf\":" + future))),
                refused(
                        "another issuer",
                        signed(HEADER, claims("\"exp\":" + EXP).replace("shop.example", "evil.example"))),
                refused(
                        "another audience",
                        signed(HEADER, claims("\"exp\":" + EXP).replace("\"flashsale\"", "\"other\""))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tokens")
    void decidesAsNimbusDoes(String what, String token, boolean accepted) {
        assertThat(outcome(nimbus::decode, token)).as("Nimbus").isEqualTo(accepted);
        assertThat(outcome(decoder::decode, token)).as("Hs256JwtDecoder").isEqualTo(accepted);
    }

    @Test
    void givesTheClaimsSpringsTypes() {
        String token = signed(HEADER, CLAIMS);

        Jwt ours = decoder.decode(token);
        Jwt theirs = nimbus.decode(token);

        assertThat(ours.getClaims()).isEqualTo(theirs.getClaims());
        assertThat(ours.getHeaders()).isEqualTo(theirs.getHeaders());
        assertThat(ours.getExpiresAt()).isEqualTo(Instant.ofEpochSecond(EXP));
        assertThat(ours.getSubject()).isEqualTo("alice");
    }

    @Test
    void needsAKeyOfAtLeast256Bits() {
        assertThatThrownBy(() -> new Hs256JwtDecoder(key("31-bytes-are-one-byte-too-short", "HmacSHA256"), jwt -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("256 bits");
    }

    @Test
    void refusesAClaimNamedTwice() {
        String twice = signed(HEADER, claims("\"exp\":" + EXP + ",\"sub\":\"mallory\""));

        assertThatThrownBy(() -> decoder.decode(twice)).isInstanceOf(BadJwtException.class);
    }

    private static boolean outcome(Function<String, Jwt> decode, String token) {
        try {
            decode.apply(token);
            return true;
        } catch (BadJwtException refused) {
            return false;
        }
    }

    private static Arguments accepted(String what, String token) {
        return Arguments.of(what, token, true);
    }

    private static Arguments refused(String what, String token) {
        return Arguments.of(what, token, false);
    }

    private static String claims(String more) {
        return "{\"sub\":\"alice\",\"scope\":\"buyer\",\"iss\":\"https://shop.example\",\"aud\":[\"flashsale\"]," + more
                + "}";
    }

    private static String signed(String header, String claims) {
        return signed(header, claims, KEY);
    }

    private static String signed(String header, String claims, SecretKey key) {
        String content = base64url(header) + "." + base64url(claims);
        try {
            Mac mac = Mac.getInstance(key.getAlgorithm());
            mac.init(key);
            return content + "."
                    + Base64.getUrlEncoder()
                            .withoutPadding()
                            .encodeToString(mac.doFinal(content.getBytes(StandardCharsets.US_ASCII)));
        } catch (Exception impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static String part(String token, int index) {
        return List.of(token.split("\\.", -1)).get(index);
    }

    private static String base64url(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static SecretKey key(String secret, String algorithm) {
        return new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), algorithm);
    }

    private static JwtDecoder nimbus() {
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withSecretKey(KEY)
                .macAlgorithm(MacAlgorithm.HS256)
                .build();
        decoder.setJwtValidator(TokenRules.of(SETTINGS));
        return decoder;
    }
}
