package io.flashsale.api;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * Bearer tokens for tests, signed like {@code bin/flashsale token}: HS256 with the dev secret of
 * {@code application.yaml}, {@code sub} = user id, scope {@code admin} for sale admin. Also the
 * attacker's tokens: wrong secret, {@code alg: none}, expired.
 */
public final class TestTokens {

    /** The dev default of {@code FLASHSALE_JWT_SECRET} in the api's {@code application.yaml}. */
    public static final String DEV_SECRET = "flashsale-dev-secret-change-me-0123456789abcdef";

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
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .subject(userId)
                .claim("scope", "admin")
                .build();
        return sign(DEV_SECRET, claims);
    }

    /** Well signed, with issuer and audience. */
    public static String issued(String secret, String userId, String issuer, String audience) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder(
                        claims(userId, null, Instant.now().plus(LIFETIME)))
                .issuer(issuer)
                .audience(audience)
                .build();
        return sign(secret, claims);
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
        return new PlainJWT(claims(userId, "admin", Instant.now().plus(LIFETIME))).serialize();
    }

    /** HS256 over {@code secret}; {@code scope} may be null. */
    public static String signed(String secret, String userId, String scope, Instant expiresAt) {
        return sign(secret, claims(userId, scope, expiresAt));
    }

    private static String sign(String secret, JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        try {
            jwt.sign(new MACSigner(secret));
        } catch (JOSEException e) {
            throw new IllegalArgumentException("cannot sign a test token", e);
        }
        return jwt.serialize();
    }

    private static JWTClaimsSet claims(String userId, String scope, Instant expiresAt) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .subject(userId)
                .issueTime(Date.from(expiresAt.minus(LIFETIME)))
                .expirationTime(Date.from(expiresAt));
        if (scope != null) {
            claims.claim("scope", scope);
        }
        return claims.build();
    }
}
