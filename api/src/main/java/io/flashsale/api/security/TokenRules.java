package io.flashsale.api.security;

import io.flashsale.api.ApiProperties;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;

/**
 * What every accepted token must satisfy, whichever key signed it: an {@code exp} (a token without
 * one would never expire), {@code exp}/{@code nbf} within the configured clock skew, and the
 * configured issuer and audience.
 */
final class TokenRules {

    private TokenRules() {}

    static OAuth2TokenValidator<Jwt> of(ApiProperties.Jwt settings) {
        List<OAuth2TokenValidator<Jwt>> rules = new ArrayList<>();
        rules.add(new JwtClaimValidator<Instant>(JwtClaimNames.EXP, Objects::nonNull));
        rules.add(new JwtTimestampValidator(settings.clockSkew()));
        if (isSet(settings.issuer())) {
            rules.add(new JwtIssuerValidator(settings.issuer()));
        }
        if (isSet(settings.audience())) {
            rules.add(new JwtClaimValidator<List<String>>(
                    JwtClaimNames.AUD, audience -> audience != null && audience.contains(settings.audience())));
        }
        return new DelegatingOAuth2TokenValidator<>(rules);
    }

    /**
     * Keys fetched from a JWK set or found by issuer discovery may sign tokens for any service of
     * that identity provider: without an issuer and audience of our own, any of them would do.
     */
    static void requireIssuerAndAudience(ApiProperties.Jwt settings) {
        if (!isSet(settings.issuer()) || !isSet(settings.audience())) {
            throw new IllegalStateException("keys come from a JWK set URI or issuer discovery: set FLASHSALE_JWT_ISSUER"
                    + " and FLASHSALE_JWT_AUDIENCE, so that only tokens issued for this api are accepted");
        }
    }

    private static boolean isSet(String value) {
        return value != null && !value.isBlank();
    }
}
