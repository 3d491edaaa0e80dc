package io.flashsale.bench;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/** HS256 bearer tokens as {@code bin/flashsale token} signs them: sub = user, scope buyer, admin or payments. */
public final class Tokens {

    static final String DEV_SECRET = "flashsale-dev-secret-change-me-0123456789abcdef";
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final String HEADER = b64("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");

    private final byte[] secret;

    public Tokens(String secret) {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    static Tokens fromEnvironment() {
        String secret = System.getenv("FLASHSALE_JWT_SECRET");
        return new Tokens(secret == null || secret.isBlank() ? DEV_SECRET : secret);
    }

    /** The HMAC key these tokens are signed with (and the api verifies them with). */
    SecretKey key() {
        return new SecretKeySpec(secret, "HmacSHA256");
    }

    public String buyer(String user) {
        return sign(user, "buyer");
    }

    public String admin() {
        return admin("bench-admin");
    }

    /** An admin token of {@code user}: what the api records as who changed a sale. */
    String admin(String user) {
        return sign(user, "admin");
    }

    /** The shop's payment service: confirms payments. */
    public String payments() {
        return sign("payment-service", "payments");
    }

    private String sign(String user, String scope) {
        long now = System.currentTimeMillis() / 1000;
        String claims = b64(
                "{\"sub\":\"%s\",\"scope\":\"%s\",\"iat\":%d,\"exp\":%d}".formatted(user, scope, now, now + 4 * 3600));
        String input = HEADER + "." + claims;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key());
            return input + "." + B64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String b64(String json) {
        return B64.encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
