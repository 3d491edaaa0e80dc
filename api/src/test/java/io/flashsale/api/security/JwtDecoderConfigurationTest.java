package io.flashsale.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.flashsale.api.ApiProperties;
import io.flashsale.api.TestTokens;
import io.flashsale.testkit.DevSecrets;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.security.oauth2.resource.servlet.OAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.web.DefaultSecurityFilterChain;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.util.matcher.AnyRequestMatcher;

/** Which decoder the api builds: HS256 (dev secret only under the dev profile) or Boot's, from a public key. */
class JwtDecoderConfigurationTest {

    private static final String OWN_SECRET = "an-operator-chosen-secret-0123456789-abcdef";

    private final WebApplicationContextRunner context = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OAuth2ResourceServerAutoConfiguration.class))
            .withUserConfiguration(Support.class, JwtDecoderConfiguration.class)
            .withPropertyValues(
                    "flashsale.api.rate-limit.per-user.capacity=5",
                    "flashsale.api.rate-limit.per-user.refill-per-second=1",
                    "flashsale.api.rate-limit.per-address.capacity=300",
                    "flashsale.api.rate-limit.per-address.refill-per-second=100",
                    "flashsale.api.max-body-size=16KB",
                    "flashsale.api.temporal-retry=2s",
                    "flashsale.api.commands.answer-within=3s",
                    "flashsale.api.commands.threads=32",
                    "flashsale.api.commands.queue-capacity=5000",
                    "flashsale.api.jwt.clock-skew=30s",
                    "flashsale.api.jwt.cache-size=1000",
                    "flashsale.api.sold-out-mark.ttl=1s",
                    "flashsale.api.sold-out-mark.max-buyers=100000",
                    "flashsale.api.payments.webhook-secret=",
                    "flashsale.api.payments.webhook-tolerance=5m",
                    "flashsale.api.starts.concurrency=8",
                    "flashsale.api.starts.queue-capacity=20000",
                    "flashsale.api.starts.drain-timeout=10s",
                    "flashsale.api.starts.give-up-after=4s",
                    "flashsale.api.warmup.requests=0",
                    "flashsale.api.warmup.concurrency=8");

    /**
     * The api's own dev default, in its code and its application.yaml, is the dev secret every script,
     * test and tool signs with (the testkit's dev-secrets.properties).
     */
    @Test
    void theDevDefaultIsTheDevSecretTheToolsSignWith() throws IOException {
        assertThat(JwtSecretPolicy.DEV_DEFAULT).isEqualTo(DevSecrets.jwt());
        try (InputStream yaml = getClass().getResourceAsStream("/application.yaml")) {
            assertThat(new String(yaml.readAllBytes(), StandardCharsets.UTF_8))
                    .contains("${FLASHSALE_JWT_SECRET:" + DevSecrets.jwt() + "}");
        }
    }

    @Test
    void refusesToStartWithTheDevSecretOutsideTheDevProfile() {
        context.withPropertyValues("flashsale.api.jwt.secret=" + JwtSecretPolicy.DEV_DEFAULT)
                .run(started -> {
                    assertThat(started).hasFailed();
                    Throwable failure = started.getStartupFailure();
                    FailureAnalysis analysis = new DevSecretFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("dev default");
                    assertThat(analysis.getAction())
                            .contains("FLASHSALE_JWT_SECRET")
                            .contains("SPRING_PROFILES_ACTIVE=dev");
                });
    }

    @Test
    void startsWithTheDevSecretUnderTheDevProfile() {
        context.withPropertyValues(
                        "flashsale.api.jwt.secret=" + JwtSecretPolicy.DEV_DEFAULT, "spring.profiles.active=dev")
                .run(started -> assertThat(started.getBean(JwtDecoder.class)
                                .decode(TestTokens.buyer("alice"))
                                .getSubject())
                        .isEqualTo("alice"));
    }

    @Test
    void startsWithAnOperatorSecretAndRejectsDevTokens() {
        context.withPropertyValues("flashsale.api.jwt.secret=" + OWN_SECRET).run(started -> {
            JwtDecoder decoder = started.getBean(JwtDecoder.class);
            String token =
                    TestTokens.signed(OWN_SECRET, "alice", null, Instant.now().plusSeconds(60));
            assertThat(decoder.decode(token).getSubject()).isEqualTo("alice");
            assertThatThrownBy(() -> decoder.decode(TestTokens.buyer("alice"))).isInstanceOf(JwtException.class);
        });
    }

    @Test
    void refusesATokenWithoutExpiry() {
        context.withPropertyValues(
                        "flashsale.api.jwt.secret=" + JwtSecretPolicy.DEV_DEFAULT, "spring.profiles.active=dev")
                .run(started -> assertThatThrownBy(
                                () -> started.getBean(JwtDecoder.class).decode(TestTokens.withoutExpiry("alice")))
                        .isInstanceOf(JwtValidationException.class)
                        .hasMessageContaining("exp"));
    }

    @Test
    void allowsTheConfiguredClockSkewAndNoMore() {
        context.withPropertyValues("flashsale.api.jwt.secret=" + OWN_SECRET, "flashsale.api.jwt.clock-skew=30s")
                .run(started -> {
                    JwtDecoder decoder = started.getBean(JwtDecoder.class);
                    Instant now = Instant.now();
                    String justExpired = TestTokens.signed(OWN_SECRET, "alice", null, now.minusSeconds(20));
                    String longExpired = TestTokens.signed(OWN_SECRET, "alice", null, now.minusSeconds(40));
                    assertThat(decoder.decode(justExpired).getSubject()).isEqualTo("alice");
                    assertThatThrownBy(() -> decoder.decode(longExpired)).isInstanceOf(JwtValidationException.class);
                });
    }

    @Test
    void checksIssuerAndAudienceWhenConfigured() {
        context.withPropertyValues(
                        "flashsale.api.jwt.secret=" + OWN_SECRET,
                        "flashsale.api.jwt.issuer=https://id.example",
                        "flashsale.api.jwt.audience=flashsale-api")
                .run(started -> {
                    JwtDecoder decoder = started.getBean(JwtDecoder.class);
                    String ours = TestTokens.issued(OWN_SECRET, "alice", "https://id.example", "flashsale-api");
                    String otherAudience = TestTokens.issued(OWN_SECRET, "alice", "https://id.example", "shop-admin");
                    String otherIssuer =
                            TestTokens.issued(OWN_SECRET, "alice", "https://evil.example", "flashsale-api");
                    assertThat(decoder.decode(ours).getSubject()).isEqualTo("alice");
                    assertThatThrownBy(() -> decoder.decode(otherAudience))
                            .isInstanceOf(JwtValidationException.class)
                            .hasMessageContaining("aud");
                    assertThatThrownBy(() -> decoder.decode(otherIssuer))
                            .isInstanceOf(JwtValidationException.class)
                            .hasMessageContaining("iss");
                    assertThatThrownBy(() -> decoder.decode(TestTokens.signed(
                                    OWN_SECRET, "alice", null, Instant.now().plusSeconds(60))))
                            .isInstanceOf(JwtValidationException.class);
                });
    }

    @Test
    void refusesToStartOnAJwkSetUriWithoutIssuerAndAudience() {
        context.withPropertyValues(
                        "flashsale.api.jwt.secret=" + OWN_SECRET,
                        "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:9/jwks")
                .run(started -> {
                    assertThat(started).hasFailed();
                    assertThat(started.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("FLASHSALE_JWT_ISSUER")
                            .hasMessageContaining("FLASHSALE_JWT_AUDIENCE");
                });
        context.withPropertyValues(
                        "flashsale.api.jwt.secret=" + OWN_SECRET,
                        "flashsale.api.jwt.issuer=https://id.example",
                        "flashsale.api.jwt.audience=flashsale-api",
                        "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:9/jwks")
                .run(started -> assertThat(started).hasNotFailed());
    }

    @Test
    void usesAConfiguredPublicKeyInsteadOfTheSecret(@TempDir Path dir) throws Exception {
        KeyPair keys = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        Path pem = dir.resolve("public.pem");
        Files.writeString(
                pem,
                "-----BEGIN PUBLIC KEY-----\n"
                        + Base64.getMimeEncoder()
                                .encodeToString(keys.getPublic().getEncoded())
                        + "\n-----END PUBLIC KEY-----\n");

        context.withPropertyValues(
                        // the dev secret outside the dev profile: ignored, since the key decides
                        "flashsale.api.jwt.secret=" + JwtSecretPolicy.DEV_DEFAULT,
                        "spring.security.oauth2.resourceserver.jwt.public-key-location=" + pem.toUri())
                .run(started -> {
                    assertThat(started).hasNotFailed();
                    JwtDecoder decoder = started.getBean(JwtDecoder.class);
                    assertThat(decoder.decode(rs256(keys, "bob")).getSubject()).isEqualTo("bob");
                    assertThatThrownBy(() -> decoder.decode(TestTokens.buyer("bob")))
                            .isInstanceOf(JwtException.class);
                });
    }

    private static String rs256(KeyPair keys, String subject) throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader(JWSAlgorithm.RS256),
                new JWTClaimsSet.Builder()
                        .subject(subject)
                        .expirationTime(new Date(System.currentTimeMillis() + 60_000))
                        .build());
        jwt.sign(new RSASSASigner(keys.getPrivate()));
        return jwt.serialize();
    }

    /** The api's properties, and a filter chain so Boot's own resource-server chain stays away. */
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(ApiProperties.class)
    static class Support {

        @Bean
        SecurityFilterChain noFilterChain() {
            return new DefaultSecurityFilterChain(AnyRequestMatcher.INSTANCE);
        }
    }
}
