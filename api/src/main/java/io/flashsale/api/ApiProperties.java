package io.flashsale.api;

import io.flashsale.stores.admission.RateLimits;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Api settings; defaults live in {@code application.yaml}.
 *
 * @param rateLimit default token buckets of {@code POST /api/sales/{id}/purchases}, per user and per
 *     client address (each per sale); a sale created with {@code rateLimits} overrides them
 * @param maxBodySize largest request body {@code /api/**} accepts (413 beyond)
 * @param temporalRetry how long a Temporal call of the api retries before it gives up: a buyer
 *     never waits longer on a Temporal outage (the admission is then left to the worker's relay)
 * @param commands pay and cancel (Workflow Updates)
 * @param payments payment confirmations by the payment service
 * @param soldOutMark sold-out answers from memory ({@link io.flashsale.stores.admission.SoldOutMarks})
 * @param starts the workflow starts of admitted buyers, off the request thread
 * @param warmup the requests the api sends itself before it reports ready, and how many of its
 *     admissions rehearse their workflow start
 */
@Validated
@ConfigurationProperties("flashsale.api")
public record ApiProperties(
        @Valid @NotNull Jwt jwt,
        @Valid @NotNull RateLimits rateLimit,
        @NotNull DataSize maxBodySize,
        @NotNull Duration temporalRetry,
        @Valid @NotNull Commands commands,
        @Valid @NotNull Payments payments,
        @Valid @NotNull SoldOutMark soldOutMark,
        @Valid @NotNull Starts starts,
        @Valid @NotNull Warmup warmup) {

    /**
     * @param secret HS256 key for bearer tokens, at least 32 bytes; the dev default is refused outside
     *     the {@code dev} profile. Unused when a JWK set, issuer or public key is configured.
     * @param issuer when set, a token's {@code iss} must be exactly this; required with a JWK set URI
     *     or issuer discovery
     * @param audience when set, a token's {@code aud} must contain this; required with a JWK set URI
     *     or issuer discovery
     * @param clockSkew how far {@code exp} and {@code nbf} may be off; every token must carry {@code exp}
     * @param cacheSize how many verified tokens the api remembers (each until its {@code exp} plus the
     *     skew), so that a buyer's repeated requests skip the signature check; 0: none
     */
    public record Jwt(
            @NotNull @Size(min = 32) String secret,
            String issuer,
            String audience,
            @NotNull Duration clockSkew,
            @Min(0) int cacheSize) {}

    /**
     * @param answerWithin pay and cancel answer with their outcome within this, else 202 with the
     *     purchase link (the Update goes on)
     * @param threads threads of pay and cancel's calls to Temporal, apart from the HTTP threads
     * @param queueCapacity calls waiting for one of those threads
     */
    public record Commands(@NotNull Duration answerWithin, @Min(1) int threads, @Min(1) int queueCapacity) {}

    /**
     * @param webhookSecret HMAC-SHA256 key of the payment provider's webhook; empty: the webhook is
     *     off (503 webhook-not-configured), confirmations come with a {@code payments} token only
     * @param webhookTolerance how far a webhook's timestamp may lie from now, either way
     */
    public record Payments(@NotNull String webhookSecret, @NotNull Duration webhookTolerance) {}

    /**
     * @param ttl the longest a sale's sold-out mark answers without asking Redis again (a unit that
     *     comes back clears it at once; this bounds a missed announcement); 0: no marks
     * @param maxBuyers a sale with more buyers than this is never marked (the mark lists them all)
     */
    public record SoldOutMark(@NotNull Duration ttl, @Min(0) int maxBuyers) {}

    /**
     * @param concurrency workflow starts under way at once
     * @param queueCapacity admissions waiting for a start; beyond it they are left to the worker's relay
     * @param drainTimeout on shutdown, how long queued starts may still run (the rest: the relay)
     * @param giveUpAfter an admission older than this when its start comes up is left to the worker's
     *     relay, which takes admissions older than its handoff: keep it below that (5 s), or both
     *     start the same workflow
     */
    public record Starts(
            @Min(1) int concurrency,
            @Min(1) int queueCapacity,
            @NotNull Duration drainTimeout,
            @NotNull Duration giveUpAfter) {}

    /**
     * @param requests purchase requests the api sends to itself before it reports ready; 0: none
     * @param concurrency of them at once
     * @param starts admissions of the warm-up's admitting sale whose workflow start is rehearsed
     *     (started on a task queue no worker polls, deleted at once); 0: none
     */
    public record Warmup(@Min(0) int requests, @Min(1) int concurrency, @Min(0) int starts) {}
}
