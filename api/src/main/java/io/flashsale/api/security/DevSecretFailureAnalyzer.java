package io.flashsale.api.security;

import io.flashsale.api.security.JwtSecretPolicy.DevSecretRefusedException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Prints why the api refused to start with the dev secret, and the two ways out. */
class DevSecretFailureAnalyzer extends AbstractFailureAnalyzer<DevSecretRefusedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DevSecretRefusedException cause) {
        return new FailureAnalysis(
                cause.getMessage() + ".",
                "Set FLASHSALE_JWT_SECRET to a random secret of at least 32 bytes (e.g. openssl rand -base64 48),"
                        + " or configure spring.security.oauth2.resourceserver.jwt.jwk-set-uri (or issuer-uri,"
                        + " public-key-location); for local development only, activate the dev profile"
                        + " (SPRING_PROFILES_ACTIVE=dev).",
                cause);
    }
}
