package io.flashsale.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Properties;

/**
 * The dev secrets of {@code dev-secrets.properties} (next to this class), the file {@code
 * bin/flashsale} reads too: one definition for every script, test and tool.
 */
public final class DevSecrets {

    private static final Properties SECRETS = new Properties();

    static {
        try (InputStream in = DevSecrets.class.getResourceAsStream("dev-secrets.properties")) {
            SECRETS.load(Objects.requireNonNull(in, "dev-secrets.properties is missing"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private DevSecrets() {}

    /** The HS256 secret bearer tokens are signed with in dev ({@code FLASHSALE_JWT_SECRET}). */
    public static String jwt() {
        return get("jwt");
    }

    /** The payment webhook's HMAC secret in dev ({@code FLASHSALE_PAYMENT_WEBHOOK_SECRET}). */
    public static String paymentWebhook() {
        return get("payment-webhook");
    }

    private static String get(String name) {
        return Objects.requireNonNull(SECRETS.getProperty(name), "dev-secrets.properties has no " + name);
    }
}
