package io.flashsale.api.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

/**
 * Remembers the tokens its delegate accepted, each until its {@code exp} plus the clock skew the
 * delegate allows, so that a buyer's next requests skip the signature check and the claim parsing.
 * The key is the whole token text, signature included: a token differing in one byte is a new
 * token and goes to the delegate. Refusals are never remembered. The size is bounded; evicted
 * tokens are simply verified again.
 */
final class CachingJwtDecoder implements JwtDecoder {

    private final JwtDecoder delegate;
    private final Duration clockSkew;
    private final Clock clock;
    private final Cache<String, Jwt> accepted;

    CachingJwtDecoder(JwtDecoder delegate, int maxTokens, Duration clockSkew, Clock clock) {
        this.delegate = delegate;
        this.clockSkew = clockSkew;
        this.clock = clock;
        this.accepted = Caffeine.newBuilder()
                .maximumSize(maxTokens)
                .expireAfter(Expiry.<String, Jwt>creating(
                        (token, jwt) -> Duration.between(clock.instant(), usableUntil(jwt))))
                .build();
    }

    @Override
    public Jwt decode(String token) throws JwtException {
        Jwt known = accepted.getIfPresent(token);
        if (known != null && clock.instant().isBefore(usableUntil(known))) {
            return known;
        }
        Jwt jwt = delegate.decode(token);
        if (jwt.getExpiresAt() != null) {
            accepted.put(token, jwt);
        }
        return jwt;
    }

    /** The last instant the delegate itself would still accept the token. */
    private Instant usableUntil(Jwt jwt) {
        return jwt.getExpiresAt() == null ? Instant.MIN : jwt.getExpiresAt().plus(clockSkew);
    }
}
