package io.flashsale.api.security;

/** The HS256 secret's one startup rule: the documented dev default only under the dev profile. */
final class JwtSecretPolicy {

    /** The default of {@code FLASHSALE_JWT_SECRET} in application.yaml; public knowledge, so dev only. */
    static final String DEV_DEFAULT = "flashsale-dev-secret-change-me-0123456789abcdef";

    private JwtSecretPolicy() {}

    /** @throws DevSecretRefusedException when {@code secret} is the dev default outside the dev profile */
    static void requireUsable(String secret, boolean devProfile) {
        if (DEV_DEFAULT.equals(secret) && !devProfile) {
            throw new DevSecretRefusedException();
        }
    }

    /** Startup refused; {@link DevSecretFailureAnalyzer} turns it into a short report with the fix. */
    static final class DevSecretRefusedException extends IllegalStateException {

        DevSecretRefusedException() {
            super("flashsale.api.jwt.secret is the documented dev default, which anyone can use to sign"
                    + " tokens, and the 'dev' profile is not active");
        }
    }
}
