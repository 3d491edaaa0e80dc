package io.flashsale.stores.admission;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The admissions of one sale still waiting for the relay.
 *
 * @param entries entries in the sale's stream (admissions whose workflow start nobody confirmed)
 * @param oldest when the oldest of them was admitted (Redis time), empty when there is none
 */
public record StreamBacklog(long entries, Optional<Instant> oldest) {

    static StreamBacklog of(long entries, String oldestId) {
        return new StreamBacklog(entries, oldestId.isEmpty() ? Optional.empty() : Optional.of(admittedAt(oldestId)));
    }

    /** How long the oldest waits at {@code now}; zero when nothing waits. */
    public Duration oldestAge(Instant now) {
        return oldest.map(at -> Duration.between(at, now))
                .filter(age -> !age.isNegative())
                .orElse(Duration.ZERO);
    }

    /** When an admission entry was added: its id starts with the Redis time (millis) of the XADD. */
    public static Instant admittedAt(String entryId) {
        return Instant.ofEpochMilli(Long.parseLong(entryId.substring(0, entryId.indexOf('-'))));
    }
}
