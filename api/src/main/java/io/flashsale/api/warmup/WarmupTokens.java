package io.flashsale.api.warmup;

import com.nimbusds.jose.jwk.source.ImmutableSecret;
import io.flashsale.api.ApiProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

/**
 * Buyer tokens for the warm-up's own requests, signed with the api's HS256 secret and passing its
 * token rules (expiry, and issuer and audience when set); one per buyer, kept for the warm-up.
 */
final class WarmupTokens {

    private static final Duration LIFETIME = Duration.ofMinutes(10);

    private final JwtEncoder encoder;
    private final ApiProperties.Jwt jwt;
    private final Map<String, String> signed = new ConcurrentHashMap<>();

    WarmupTokens(ApiProperties.Jwt jwt) {
        this.jwt = jwt;
        this.encoder = new NimbusJwtEncoder(
                new ImmutableSecret<>(new SecretKeySpec(jwt.secret().getBytes(StandardCharsets.UTF_8), "HmacSHA256")));
    }

    String buyer(String user) {
        return signed.computeIfAbsent(user, this::sign);
    }

    private String sign(String user) {
        Instant now = Instant.now();
        JwtClaimsSet.Builder claims = JwtClaimsSet.builder()
                .subject(user)
                .claim("scope", "buyer")
                .issuedAt(now)
                .expiresAt(now.plus(LIFETIME));
        if (jwt.issuer() != null && !jwt.issuer().isBlank()) {
            claims.issuer(jwt.issuer());
        }
        if (jwt.audience() != null && !jwt.audience().isBlank()) {
            claims.audience(List.of(jwt.audience()));
        }
        JwsHeader header = JwsHeader.with(MacAlgorithm.HS256).build();
        return encoder.encode(JwtEncoderParameters.from(header, claims.build())).getTokenValue();
    }
}
