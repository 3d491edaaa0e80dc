package io.flashsale.stores.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SoldOutMarksTest {

    private static final Duration TTL = Duration.ofSeconds(1);

    private long now = 1_000_000_000L;
    private final AtomicInteger taken = new AtomicInteger();
    private final Deque<Runnable> duringSnapshot = new ArrayDeque<>();
    private Optional<SoldOutMarks.Snapshot> next = Optional.of(new SoldOutMarks.Snapshot(Set.of("alice"), null));
    /** When set, the sale closes at this nanoTime and snapshots say how long until then. */
    private Long closesAt;

    private final SoldOutMarks marks = new SoldOutMarks(this::take, TTL, () -> now);

    private Optional<SoldOutMarks.Snapshot> take(String saleId) {
        taken.incrementAndGet();
        while (!duringSnapshot.isEmpty()) {
            duringSnapshot.pop().run();
        }
        if (closesAt != null) {
            return Optional.of(new SoldOutMarks.Snapshot(Set.of(), Duration.ofNanos(closesAt - now)));
        }
        return next;
    }

    @Test
    void refusesOnlyBuyersWhoAreNoneOfTheSalesBuyersAndOnlyForTheMarkedSale() {
        assertThat(marks.refuses("s1", "bob")).isFalse();

        marks.soldOut("s1");

        assertThat(marks.refuses("s1", "bob")).isTrue();
        assertThat(marks.refuses("s1", "alice")).isFalse();
        assertThat(marks.refuses("s2", "bob")).isFalse();
    }

    @Test
    void asksRedisAgainOnceTheTtlRanOut() {
        marks.soldOut("s1");

        now += TTL.toNanos();

        assertThat(marks.refuses("s1", "bob")).isFalse();
        assertThat(taken).hasValue(1);
    }

    @Test
    void neverOutlivesTheSalesCloseWhenThatComesFirst() {
        closesAt = now + Duration.ofMillis(300).toNanos();
        marks.soldOut("s1");
        now += Duration.ofMillis(299).toNanos();
        assertThat(marks.refuses("s1", "bob")).isTrue();

        now += Duration.ofMillis(1).toNanos();

        assertThat(marks.refuses("s1", "bob")).isFalse();
    }

    @Test
    void renewsAMarkInTheSecondHalfOfItsLifeSoABusySaleNeverGoesUnmarked() {
        marks.soldOut("s1");
        now += TTL.toNanos() * 4 / 10;
        assertThat(marks.refuses("s1", "bob")).isTrue();
        assertThat(taken).as("first half: no renewal").hasValue(1);

        now += TTL.toNanos() * 2 / 10;
        assertThat(marks.refuses("s1", "bob")).isTrue();
        assertThat(taken).as("renewed").hasValue(2);

        now += TTL.toNanos() * 9 / 10;
        assertThat(marks.refuses("s1", "bob")).isTrue();
        assertThat(taken).hasValue(3);
    }

    @Test
    void aRenewalThatFindsStockOrFailsDropsTheMark() {
        marks.soldOut("s1");
        marks.soldOut("s2");
        now += TTL.toNanos() * 6 / 10;
        next = Optional.empty();

        assertThat(marks.refuses("s1", "bob")).isFalse();

        duringSnapshot.add(() -> {
            throw new IllegalStateException("Redis went away");
        });
        assertThat(marks.refuses("s2", "bob")).isFalse();
        assertThat(marks.refuses("s2", "carol")).isFalse();
        assertThat(taken).hasValue(4);
    }

    @Test
    void aRenewalTakenWhileAUnitCameBackLeavesNoMark() {
        marks.soldOut("s1");
        now += TTL.toNanos() * 6 / 10;
        duringSnapshot.add(() -> marks.stockReturned("s1"));

        assertThat(marks.refuses("s1", "bob")).isFalse();
        assertThat(marks.refuses("s1", "carol")).isFalse();
        assertThat(taken).hasValue(2);
    }

    @Test
    void aReturnedUnitDropsTheMarkAtOnce() {
        marks.soldOut("s1");
        marks.soldOut("s2");

        marks.stockReturned("s1");

        assertThat(marks.refuses("s1", "bob")).isFalse();
        assertThat(marks.refuses("s2", "bob")).isTrue();
    }

    @Test
    void aSnapshotTakenWhileAUnitCameBackSetsNoMark() {
        marks.soldOut("s1");
        now += TTL.toNanos();
        duringSnapshot.add(() -> marks.stockReturned("s1"));

        marks.soldOut("s1");

        assertThat(taken).hasValue(2);
        assertThat(marks.refuses("s1", "bob")).isFalse();
    }

    @Test
    void takesNoSnapshotWhileAMarkIsLive() {
        marks.soldOut("s1");
        marks.soldOut("s1");

        assertThat(taken).hasValue(1);
    }

    @Test
    void marksNothingWhenRedisSaysTheSaleIsNotSoldOutOrTheSnapshotFails() {
        next = Optional.empty();
        marks.soldOut("s1");
        assertThat(marks.refuses("s1", "bob")).isFalse();

        duringSnapshot.add(() -> {
            throw new IllegalStateException("Redis went away");
        });
        marks.soldOut("s1");
        assertThat(marks.refuses("s1", "bob")).isFalse();

        next = Optional.of(new SoldOutMarks.Snapshot(Set.of(), null));
        marks.soldOut("s1");
        assertThat(marks.refuses("s1", "bob")).isTrue();
        assertThat(taken).hasValue(3);
    }

    @Test
    void aZeroTtlTurnsMarksOff() {
        SoldOutMarks off = new SoldOutMarks(this::take, Duration.ZERO, () -> now);

        off.soldOut("s1");

        assertThat(off.refuses("s1", "bob")).isFalse();
        assertThat(taken).hasValue(0);
    }
}
