package io.flashsale.api.problem;

/** A token bucket of the purchase endpoint is empty: 429 with a Retry-After header. */
public class RateLimitedException extends ProblemException {

    private final long retryAfterSeconds;

    /** @param retryAfterSeconds whole seconds until a token is back; at least 1 is announced */
    public RateLimitedException(long retryAfterSeconds) {
        this(Math.max(1, retryAfterSeconds), true);
    }

    private RateLimitedException(long seconds, boolean clamped) {
        super(ApiProblem.RATE_LIMITED, "too many purchase requests; retry after " + seconds + " s");
        this.retryAfterSeconds = seconds;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
