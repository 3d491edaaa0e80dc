package io.flashsale.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The one signer of bearer tokens for tests and tools: HS256 JWTs as {@code bin/flashsale token}
 * signs them ({@code sub} = user, {@code scope} buyer, admin or payments, {@code iat}, {@code exp}).
 * {@link #sign} takes any claims, for the tokens a test makes to be refused.
 */
public final class Tokens {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final String HEADER =
            B64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
    private static final Duration LIFETIME = Duration.ofHours(4);

    private final byte[] secret;

    public Tokens(String secret) {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    /** Signed with {@code FLASHSALE_JWT_SECRET} when set, else the dev secret ({@link DevSecrets#jwt}). */
    public static Tokens fromEnvironment() {
        String secret = System.getenv("FLASHSALE_JWT_SECRET");
        return new Tokens(secret == null || secret.isBlank() ? DevSecrets.jwt() : secret);
    }

    /** The HMAC key these tokens are signed with (and the api verifies them with). */
    public SecretKey key() {
        return new SecretKeySpec(secret, "HmacSHA256");
    }

    public String buyer(String user) {
        return scoped(user, "buyer");
    }

    public String admin() {
        return admin("admin");
    }

    /** An admin token of {@code user}: what the api records as who changed a sale. */
    public String admin(String user) {
        return scoped(user, "admin");
    }

    /** The shop's payment service: confirms payments. */
    public String payments() {
        return scoped("payment-service", "payments");
    }

    /** {@code user}'s token with {@code scope}, issued now, valid for four hours. */
    private String scoped(String user, String scope) {
        return sign(claims(user, scope, Instant.now().plus(LIFETIME)));
    }

    /**
     * {@code sub} and {@code scope} (each left out when null), {@code iat} an hour before {@code exp};
     * a mutable map, for a test to add or change claims.
     */
    public static Map<String, Object> claims(String user, String scope, Instant expiresAt) {
        Map<String, Object> claims = new LinkedHashMap<>();
        if (user != null) {
            claims.put("sub", user);
        }
        if (scope != null) {
            claims.put("scope", scope);
        }
        claims.put("iat", expiresAt.minus(Duration.ofHours(1)).getEpochSecond());
        claims.put("exp", expiresAt.getEpochSecond());
        return claims;
    }

    /** A token of exactly these claims, as JSON. */
    public String sign(Map<String, ?> claims) {
        try {
            String input = HEADER + "." + B64.encodeToString(JSON.writeValueAsBytes(claims));
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key());
            return input + "." + B64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException | JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
