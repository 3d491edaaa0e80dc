package io.flashsale.api;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import io.flashsale.testkit.DevSecrets;
import io.flashsale.testkit.Tokens;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Bearer tokens for the api's tests, signed by the testkit's {@link Tokens} (as {@code bin/flashsale
 * token} signs them) with the dev secret, {@code sub} = user id, scope {@code admin} for sale admin.
 * Also the attacker's tokens: wrong secret, {@code alg: none}, expired.
 */
public final class TestTokens {

    /** The dev secret ({@link DevSecrets#jwt}), the api's default under its dev profile. */
    public static final String DEV_SECRET = DevSecrets.jwt();

    private static final Duration LIFETIME = Duration.ofHours(1);

    private TestTokens() {}

    /** A buyer: valid for an hour, no scope. */
    public static String buyer(String userId) {
        return signed(DEV_SECRET, userId, null, Instant.now().plus(LIFETIME));
    }

    /** A sale admin: scope {@code admin}. */
    public static String admin() {
        return signed(DEV_SECRET, "admin", "admin", Instant.now().plus(LIFETIME));
    }

    /** The shop's payment service: scope {@code payments}, confirms payments. */
    public static String payments() {
        return signed(DEV_SECRET, "payment-service", "payments", Instant.now().plus(LIFETIME));
    }

    /** Well signed, but without {@code exp}: it would never expire. */
    public static String withoutExpiry(String userId) {
        return new Tokens(DEV_SECRET).sign(Map.of("sub", userId, "scope", "admin"));
    }

    /** Well signed, with issuer and audience. */
    public static String issued(String secret, String userId, String issuer, String audience) {
        Map<String, Object> claims = Tokens.claims(userId, null, Instant.now().plus(LIFETIME));
        claims.put("iss", issuer);
        claims.put("aud", audience);
        return new Tokens(secret).sign(claims);
    }

    /** Signed with another (well-formed, 32+ byte) secret. */
    public static String forged(String userId) {
        return signed(
                "not-the-flashsale-secret-but-long-enough-0123",
                userId,
                "admin",
                Instant.now().plus(LIFETIME));
    }

    /** Well signed, expired ten minutes ago (beyond any clock skew a decoder allows). */
    public static String expired(String userId) {
        return signed(DEV_SECRET, userId, "admin", Instant.now().minus(Duration.ofMinutes(10)));
    }

    /** {@code alg: none}: an unsigned token claiming to be {@code userId} with scope admin. */
    public static String unsigned(String userId) {
        Map<String, Object> claims =
                Tokens.claims(userId, "admin", Instant.now().plus(LIFETIME));
        JWTClaimsSet.Builder unsigned = new JWTClaimsSet.Builder();
        claims.forEach(unsigned::claim);
        return new PlainJWT(unsigned.build()).serialize();
    }

    /** HS256 over {@code secret}; {@code scope} may be null. */
    public static String signed(String secret, String userId, String scope, Instant expiresAt) {
        return new Tokens(secret).sign(Tokens.claims(userId, scope, expiresAt));
    }
}
