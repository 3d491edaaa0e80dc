package io.flashsale.api;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** Api settings; defaults live in {@code application.yaml}. */
@Validated
@ConfigurationProperties("flashsale.api")
public record ApiProperties(@Valid @NotNull Jwt jwt) {

    /** @param secret HS256 key for bearer tokens, at least 32 bytes */
    public record Jwt(@NotNull @Size(min = 32) String secret) {}
}
