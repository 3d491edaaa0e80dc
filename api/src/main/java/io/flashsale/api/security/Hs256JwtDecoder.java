package io.flashsale.api.security;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.MappedJwtClaimSetConverter;

/**
 * Accepts what Spring's {@code NimbusJwtDecoder.withSecretKey(key).macAlgorithm(HS256)} accepts: a
 * compact JWS of three parts whose header is a JSON object with {@code alg} HS256, {@code typ}
 * absent or JWT and no {@code crit}, signed with the key (at least 256 bits; compared in constant
 * time), with a JSON object of claims (the registered ones of the JSON types JWT gives them), typed
 * as Spring types them and then checked by the {@code rules}. A name given twice in the header or
 * the claims is refused, where a parser would have to pick one. Every buyer of a sale brings a token
 * the api has not seen; Nimbus' general JOSE parser made a quarter of a sold-out answer's CPU, and
 * this takes less than half its CPU and a third of its allocation (docs/performance.md). Public for
 * the bench's DB-only baseline, which checks tokens as the api does.
 */
public final class Hs256JwtDecoder implements JwtDecoder {

    private static final String ALGORITHM = "HmacSHA256";
    private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();
    private static final ObjectReader JSON_OBJECT = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build()
            .readerFor(new TypeReference<Map<String, Object>>() {});

    /** The registered claims' JSON types, as Nimbus' claim parser requires them. */
    private static final Map<String, Predicate<Object>> CLAIM_TYPES = Map.of(
            "iss", String.class::isInstance,
            "aud",
                    audience -> audience instanceof String
                            || audience instanceof List<?> list && list.stream().allMatch(String.class::isInstance),
            "exp", Number.class::isInstance,
            "nbf", Number.class::isInstance,
            "iat", Number.class::isInstance);

    private static final int MIN_KEY_BYTES = 32;

    private final ThreadLocal<Mac> macs;
    private final Converter<Map<String, Object>, Map<String, Object>> claimTypes =
            MappedJwtClaimSetConverter.withDefaults(Map.of());
    private final OAuth2TokenValidator<Jwt> rules;

    public Hs256JwtDecoder(SecretKey key, OAuth2TokenValidator<Jwt> rules) {
        if (key.getEncoded() == null || key.getEncoded().length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("an HS256 key needs at least " + MIN_KEY_BYTES * 8 + " bits");
        }
        this.rules = rules;
        this.macs = ThreadLocal.withInitial(() -> {
            try {
                Mac mac = Mac.getInstance(ALGORITHM);
                mac.init(key);
                return mac;
            } catch (GeneralSecurityException unusable) {
                throw new IllegalStateException("no " + ALGORITHM + " with this key", unusable);
            }
        });
        macs.get();
    }

    @Override
    public Jwt decode(String token) {
        int headerEnd = token.indexOf('.');
        int claimsEnd = token.indexOf('.', headerEnd + 1);
        if (headerEnd < 0 || claimsEnd < 0) {
            throw new BadJwtException("not a signed JWT of three parts");
        }
        Map<String, Object> header = jsonObject(token.substring(0, headerEnd), "header");
        requireHs256(header);
        byte[] signed = macs.get().doFinal(token.substring(0, claimsEnd).getBytes(StandardCharsets.US_ASCII));
        if (!MessageDigest.isEqual(signed, base64url(token.substring(claimsEnd + 1), "signature"))) {
            throw new BadJwtException("signature does not match");
        }
        Jwt jwt = jwt(token, header, jsonObject(token.substring(headerEnd + 1, claimsEnd), "claims"));
        OAuth2TokenValidatorResult checked = rules.validate(jwt);
        if (checked.hasErrors()) {
            throw new JwtValidationException(
                    checked.getErrors().iterator().next().getDescription(), checked.getErrors());
        }
        return jwt;
    }

    /** The claims typed as Spring types them ({@code exp} an Instant, {@code aud} a list, ...). */
    private Jwt jwt(String token, Map<String, Object> header, Map<String, Object> claims) {
        claims.forEach((name, value) -> {
            if (!CLAIM_TYPES.getOrDefault(name, any -> true).test(value)) {
                throw new BadJwtException("the claim " + name + " is of the wrong type");
            }
        });
        try {
            Map<String, Object> typed = claimTypes.convert(claims);
            return Jwt.withTokenValue(token)
                    .headers(values -> values.putAll(header))
                    .claims(values -> values.putAll(typed))
                    .build();
        } catch (RuntimeException malformed) {
            throw new BadJwtException("the claims are empty or of the wrong types", malformed);
        }
    }

    private static void requireHs256(Map<String, Object> header) {
        Object type = header.get("typ");
        if (!"HS256".equals(header.get("alg"))
                || header.containsKey("crit")
                || (type != null && !(type instanceof String typ && typ.equalsIgnoreCase("JWT")))) {
            throw new BadJwtException("only HS256 JWTs without critical header parameters are accepted");
        }
    }

    private static Map<String, Object> jsonObject(String part, String what) {
        try {
            Map<String, Object> object = JSON_OBJECT.readValue(base64url(part, what));
            if (object == null) {
                throw new BadJwtException("the " + what + " is not a JSON object");
            }
            return object;
        } catch (IOException malformed) {
            throw new BadJwtException("the " + what + " is not a JSON object", malformed);
        }
    }

    private static byte[] base64url(String part, String what) {
        try {
            return BASE64URL.decode(part);
        } catch (IllegalArgumentException malformed) {
            throw new BadJwtException("the " + what + " is not base64url", malformed);
        }
    }
}
