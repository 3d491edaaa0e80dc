package io.flashsale.api.security;

import io.flashsale.api.ApiProperties;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.stores.RedisKeyProperties;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Checks the payment provider's webhook: header {@value #SIGNATURE} is {@code v1=} and the hex
 * HMAC-SHA256, under {@code FLASHSALE_PAYMENT_WEBHOOK_SECRET}, of header {@value #TIMESTAMP} (epoch
 * seconds), a dot and the raw body. Refused: a bad or missing signature, a timestamp further than the
 * tolerance from now, a delivery seen before (its signature is remembered in Redis for twice the
 * tolerance, so every delivery still inside it is caught). A delivery counts as seen once its
 * outcome is decided: one the api could not apply is forgotten again.
 */
@Component
public class WebhookSignatures {

    public static final String TIMESTAMP = "Webhook-Timestamp";
    public static final String SIGNATURE = "Webhook-Signature";
    private static final String VERSION = "v1=";

    private final byte[] secret;
    private final Duration tolerance;
    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;
    private final Clock clock;

    @Autowired
    public WebhookSignatures(ApiProperties properties, StringRedisTemplate redis, RedisKeyProperties keys) {
        this(properties.payments(), redis, keys, Clock.systemUTC());
    }

    WebhookSignatures(
            ApiProperties.Payments payments, StringRedisTemplate redis, RedisKeyProperties keys, Clock clock) {
        this.secret = payments.webhookSecret().getBytes(StandardCharsets.UTF_8);
        this.tolerance = payments.webhookTolerance();
        this.redis = redis;
        this.keys = keys;
        this.clock = clock;
    }

    /** A delivery this api has taken: its signature is remembered until {@link #forget} or the TTL. */
    public record Delivery(String key) {}

    /**
     * Returns the delivery when it is authentic, fresh and new, remembered as seen; otherwise throws
     * its problem. A delivery whose outcome was not decided (the store or Temporal was down) must be
     * {@link #forget forgotten}, so the provider's redelivery of the same bytes is applied.
     */
    public Delivery verify(String timestamp, String signature, byte[] body) {
        if (secret.length == 0) {
            throw new ProblemException(ApiProblem.WEBHOOK_NOT_CONFIGURED, "set FLASHSALE_PAYMENT_WEBHOOK_SECRET");
        }
        String expected = VERSION + sign(timestamp, body);
        if (signature == null || !MessageDigest.isEqual(bytes(expected), bytes(signature))) {
            throw new ProblemException(ApiProblem.WEBHOOK_SIGNATURE_INVALID, "signature does not match the body");
        }
        requireFresh(timestamp);
        Delivery delivery = new Delivery(keys.webhookDelivery(expected));
        Boolean first = redis.opsForValue().setIfAbsent(delivery.key(), "1", tolerance.multipliedBy(2));
        if (!Boolean.TRUE.equals(first)) {
            throw new ProblemException(ApiProblem.WEBHOOK_REPLAYED, "this delivery was received before");
        }
        return delivery;
    }

    /** The delivery was not applied: a redelivery of it is new again. */
    public void forget(Delivery delivery) {
        redis.delete(delivery.key());
    }

    /** The hex HMAC-SHA256 of {@code timestamp.body}. */
    String sign(String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(bytes(String.valueOf(timestamp) + "."));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    private void requireFresh(String timestamp) {
        Instant sent;
        try {
            sent = Instant.ofEpochSecond(Long.parseLong(timestamp));
        } catch (RuntimeException notANumber) {
            throw new ProblemException(ApiProblem.WEBHOOK_STALE, TIMESTAMP + " must be epoch seconds");
        }
        if (Duration.between(sent, clock.instant()).abs().compareTo(tolerance) > 0) {
            throw new ProblemException(
                    ApiProblem.WEBHOOK_STALE, TIMESTAMP + " is more than " + tolerance + " away from now");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
