package io.flashsale.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

class CachingJwtDecoderTest {

    private static final Duration SKEW = Duration.ofSeconds(30);
    private static final Instant START = Instant.parse("2026-12-01T12:00:00Z");

    private Instant now = START;
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };

    /** Accepts "good-*" tokens expiring a minute after START, and nothing past exp + skew, as TokenRules does. */
    private final List<String> verified = new ArrayList<>();

    private final JwtDecoder delegate = token -> {
        verified.add(token);
        Instant exp = START.plusSeconds(60);
        if (!token.startsWith("good") || now.isAfter(exp.plus(SKEW))) {
            throw new BadJwtException("refused " + token);
        }
        Jwt.Builder jwt = Jwt.withTokenValue(token).header("alg", "HS256").subject(token);
        return token.startsWith("good-noexp") ? jwt.build() : jwt.expiresAt(exp).build();
    };

    private final CachingJwtDecoder decoder = new CachingJwtDecoder(delegate, 100, SKEW, clock);

    @Test
    void verifiesATokenOnceWhileItIsValid() {
        Jwt first = decoder.decode("good-a");
        now = START.plusSeconds(60).plus(SKEW).minusMillis(1);

        assertThat(decoder.decode("good-a")).isSameAs(first);
        assertThat(verified).containsExactly("good-a");
    }

    @Test
    void refusesARememberedTokenOnceItsExpiryAndTheSkewHavePassed() {
        decoder.decode("good-a");
        now = START.plusSeconds(60).plus(SKEW).plusMillis(1);

        assertThatThrownBy(() -> decoder.decode("good-a")).isInstanceOf(BadJwtException.class);
        assertThat(verified).containsExactly("good-a", "good-a");
    }

    @Test
    void neverRemembersARefusalOrATokenWithoutExpiry() {
        assertThatThrownBy(() -> decoder.decode("forged")).isInstanceOf(BadJwtException.class);
        assertThatThrownBy(() -> decoder.decode("forged")).isInstanceOf(BadJwtException.class);
        decoder.decode("good-noexp");
        decoder.decode("good-noexp");

        assertThat(verified).containsExactly("forged", "forged", "good-noexp", "good-noexp");
    }

    @Test
    void aTokenDifferingInOneByteIsVerifiedOnItsOwn() {
        decoder.decode("good-a");

        assertThatThrownBy(() -> decoder.decode("gooD-a")).isInstanceOf(BadJwtException.class);
        assertThat(verified).containsExactly("good-a", "gooD-a");
    }
}
