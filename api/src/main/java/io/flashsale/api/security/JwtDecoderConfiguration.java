package io.flashsale.api.security;

import io.flashsale.api.ApiProperties;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

/**
 * The HS256 decoder over {@code flashsale.api.jwt.secret} ({@link Hs256JwtDecoder}), unless one of
 * Spring Boot's standard key sources is configured ({@code
 * spring.security.oauth2.resourceserver.jwt.jwk-set-uri}, {@code issuer-uri} or {@code
 * public-key-location}): then Boot's own decoder (RS256 and friends) is used and the secret is
 * ignored. Either way every token must pass {@link TokenRules}, and the decoder
 * remembers the tokens it accepted ({@link CachingJwtDecoder}).
 */
@Configuration(proxyBeanMethods = false)
class JwtDecoderConfiguration {

    static final String DEV_PROFILE = "dev";

    @Bean
    @Conditional(NoStandardKeySource.class)
    JwtDecoder jwtDecoder(ApiProperties properties, Environment environment) {
        String secret = properties.jwt().secret();
        JwtSecretPolicy.requireUsable(secret, environment.acceptsProfiles(Profiles.of(DEV_PROFILE)));
        return new Hs256JwtDecoder(
                new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"),
                TokenRules.of(properties.jwt()));
    }

    /**
     * {@link TokenRules} for Boot's own decoders too (they add validator beans to theirs). With keys
     * from a JWK set URI or issuer discovery, the api refuses to start without issuer and audience.
     */
    @Bean
    OAuth2TokenValidator<Jwt> tokenRules(ApiProperties properties, Environment environment) {
        String prefix = "spring.security.oauth2.resourceserver.jwt.";
        if (environment.containsProperty(prefix + "jwk-set-uri")
                || environment.containsProperty(prefix + "issuer-uri")) {
            TokenRules.requireIssuerAndAudience(properties.jwt());
        }
        return TokenRules.of(properties.jwt());
    }

    /**
     * Puts {@link CachingJwtDecoder} in front of whichever decoder is in use, ours or Boot's, unless
     * {@code flashsale.api.jwt.cache-size} is 0.
     */
    @Bean
    static BeanPostProcessor cachingJwtDecoder(ObjectProvider<ApiProperties> properties) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (!(bean instanceof JwtDecoder decoder) || bean instanceof CachingJwtDecoder) {
                    return bean;
                }
                ApiProperties.Jwt settings = properties.getObject().jwt();
                return settings.cacheSize() == 0
                        ? bean
                        : new CachingJwtDecoder(decoder, settings.cacheSize(), settings.clockSkew(), Clock.systemUTC());
            }
        };
    }

    /** Matches when none of Boot's resource-server key properties is set. */
    static class NoStandardKeySource extends NoneNestedConditions {

        private static final String PREFIX = "spring.security.oauth2.resourceserver.jwt";

        NoStandardKeySource() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(prefix = PREFIX, name = "jwk-set-uri")
        static class JwkSetUri {}

        @ConditionalOnProperty(prefix = PREFIX, name = "issuer-uri")
        static class IssuerUri {}

        @ConditionalOnProperty(prefix = PREFIX, name = "public-key-location")
        static class PublicKeyLocation {}
    }
}
