package io.flashsale.stores.sale;

import io.flashsale.stores.admission.RelaySales;
import io.flashsale.stores.replication.ReplicaAcks;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What an operator changes on a live sale, each change one atomic step in Redis (a Lua script) and
 * one MySQL transaction that also records it ({@link SaleChangeLog}), in the order that never lets
 * Redis offer a unit MySQL does not have (docs/operations.md, "Changing a live sale"). Every change
 * holds the sale's row lock ({@link SaleRepository#findForUpdate}) while it decides, so the changes
 * of one sale run one after the other; once the lock is released, the answer waits until the
 * replicas asked for have the Redis step ({@link ReplicaAcks}).
 */
public class SaleChanges {

    /** How a change request ended. */
    public enum Outcome {
        /** This request changed the sale. */
        CHANGED,
        /** Nothing to change: the same request was done before, or the sale already is as asked. */
        UNCHANGED,
        NOT_FOUND,
        /** The sale has ended: no units are added and its window stays. */
        CLOSED,
        /** A new end (or a changed start) lies in the past. */
        IN_PAST,
        /** The window would end before it starts. */
        INVALID_WINDOW,
        /** The Idempotency-Key was used for another change of the sale. */
        KEY_CONFLICT,
        /** Redis does not have the sale, or has units MySQL does not: the sale needs a repair first. */
        STORES_APART,
        /** The sale's Redis side is archived: it ended and every purchase is final. */
        ARCHIVED
    }

    private record Done(Outcome outcome, Instant closes) {}

    private final SaleRepository sales;
    private final SaleUpdates updates;
    private final SaleChangeLog log;
    private final RedisSaleChanges redis;
    private final RelaySales relaySales;
    private final ReplicaAcks acks;
    private final TransactionTemplate transaction;

    SaleChanges(
            SaleRepository sales,
            SaleUpdates updates,
            SaleChangeLog log,
            RedisSaleChanges redis,
            RelaySales relaySales,
            ReplicaAcks acks,
            TransactionTemplate transaction) {
        this.sales = sales;
        this.updates = updates;
        this.log = log;
        this.redis = redis;
        this.relaySales = relaySales;
        this.acks = acks;
        this.transaction = transaction;
    }

    /** Closes the sale now: Redis first (admissions stop at once), then MySQL. Idempotent by sale. */
    public Outcome close(String saleId, String by) {
        Done done = transaction.execute(tx -> closeLocked(saleId, by));
        acks.await();
        if (done.outcome() == Outcome.CHANGED) {
            relaySales.add(saleId, done.closes());
        }
        return done.outcome();
    }

    /** Adds units: MySQL first (total and available), then Redis. Idempotent by {@code key}. */
    public Outcome restock(String saleId, String key, int units, String by) {
        Outcome outcome = transaction.execute(tx -> restockLocked(saleId, key, units, by));
        if (outcome != Outcome.CHANGED && outcome != Outcome.UNCHANGED) {
            return outcome;
        }
        long restocked = redis.restock(saleId, key, units);
        acks.await();
        return restocked < 0 ? Outcome.STORES_APART : outcome;
    }

    /** Takes at most {@code units} unsold, unheld units off sale: Redis first, then MySQL. Idempotent by {@code key}. */
    public Outcome withdraw(String saleId, String key, int units, String by) {
        Outcome outcome = transaction.execute(tx -> withdrawLocked(saleId, key, units, by));
        acks.await();
        return outcome;
    }

    /**
     * Moves the window; a null bound keeps the sale's. MySQL and Redis in one transaction, rolled back
     * when Redis finds the sale closed. Idempotent by the window asked for.
     */
    public Outcome move(String saleId, Instant startsAt, Instant endsAt, String by) {
        Done done = transaction.execute(tx -> moveLocked(saleId, millis(startsAt), millis(endsAt), by, tx));
        acks.await();
        if (done.outcome() == Outcome.CHANGED) {
            relaySales.add(saleId, done.closes());
        }
        return done.outcome();
    }

    private Done closeLocked(String saleId, String by) {
        Optional<Sale> sale = sales.findForUpdate(saleId);
        if (sale.isEmpty()) {
            return new Done(Outcome.NOT_FOUND, null);
        }
        OptionalLong closedInRedis = redis.close(saleId);
        Instant closes = closedInRedis.isPresent() ? Instant.ofEpochMilli(closedInRedis.getAsLong()) : now();
        if (!updates.closeAt(saleId, closes)) {
            return new Done(Outcome.UNCHANGED, closes);
        }
        log.record(
                saleId,
                change(
                        SaleChangeKind.CLOSE,
                        SaleChange.CLOSE_KEY,
                        null,
                        0,
                        sale.get().startsAt(),
                        closes,
                        by));
        return new Done(Outcome.CHANGED, closes);
    }

    private Outcome restockLocked(String saleId, String key, int units, String by) {
        if (sales.findForUpdate(saleId).isEmpty()) {
            return Outcome.NOT_FOUND;
        }
        Optional<SaleChange> before = log.find(saleId, key);
        if (before.isPresent()) {
            return before.get().sameRequest(SaleChangeKind.RESTOCK, units) ? Outcome.UNCHANGED : Outcome.KEY_CONFLICT;
        }
        if (!updates.grow(saleId, units)) {
            return Outcome.CLOSED;
        }
        log.record(saleId, change(SaleChangeKind.RESTOCK, key, units, units, null, null, by));
        return Outcome.CHANGED;
    }

    private Outcome withdrawLocked(String saleId, String key, int units, String by) {
        Optional<Sale> sale = sales.findForUpdate(saleId);
        if (sale.isEmpty()) {
            return Outcome.NOT_FOUND;
        }
        if (sale.get().redisArchived()) {
            return Outcome.ARCHIVED;
        }
        Optional<SaleChange> before = log.find(saleId, key);
        if (before.isPresent()) {
            return before.get().sameRequest(SaleChangeKind.WITHDRAW, units) ? Outcome.UNCHANGED : Outcome.KEY_CONFLICT;
        }
        RedisSaleChanges.Withdrawal taken = redis.withdraw(saleId, key, units);
        if (!taken.loaded() || !updates.shrink(saleId, taken.taken())) {
            return Outcome.STORES_APART;
        }
        log.record(saleId, change(SaleChangeKind.WITHDRAW, key, units, -taken.taken(), null, null, by));
        return Outcome.CHANGED;
    }

    private Done moveLocked(String saleId, Instant startsAt, Instant endsAt, String by, TransactionStatus tx) {
        Optional<Sale> found = sales.findForUpdate(saleId);
        if (found.isEmpty()) {
            return new Done(Outcome.NOT_FOUND, null);
        }
        Sale sale = found.get();
        Instant starts = startsAt != null ? startsAt : sale.startsAt();
        Instant ends = endsAt != null ? endsAt : sale.endsAt();
        Outcome refused = refusal(sale, starts, ends);
        if (refused != null) {
            return new Done(refused, null);
        }
        if (!updates.move(saleId, starts, ends)) {
            return new Done(Outcome.CLOSED, null);
        }
        log.record(saleId, change(SaleChangeKind.MOVE, null, null, 0, starts, ends, by));
        if (redis.move(saleId, starts, ends) == -2) {
            tx.setRollbackOnly();
            return new Done(Outcome.CLOSED, null);
        }
        return new Done(Outcome.CHANGED, ends);
    }

    /** Why the window may not become [starts, ends); null when it may (or already is). */
    private static Outcome refusal(Sale sale, Instant starts, Instant ends) {
        boolean startMoves = !Objects.equals(starts, sale.startsAt());
        if (!startMoves && Objects.equals(ends, sale.endsAt())) {
            return Outcome.UNCHANGED;
        }
        Instant now = now();
        if ((ends != null && !ends.isAfter(now)) || (startMoves && starts != null && starts.isBefore(now))) {
            return Outcome.IN_PAST;
        }
        return starts != null && ends != null && !ends.isAfter(starts) ? Outcome.INVALID_WINDOW : null;
    }

    private static SaleChange change(
            SaleChangeKind kind, String key, Integer asked, int units, Instant starts, Instant ends, String by) {
        return new SaleChange(kind, key, asked, units, starts, ends, by, null);
    }

    private static Instant millis(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS);
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
