package io.flashsale.stores.admission;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-sale "sold out" marks of one api instance, so that after the burst the sold-out flood is
 * answered without a Redis round trip. A mark can only refuse, never admit, and only a buyer who
 * is not one of the sale's buyers: those are owed SAME_KEY (their purchase) or ALREADY_PURCHASED,
 * which only admit.lua can tell.
 *
 * <p>Why a refusal from a mark is right: a mark is set only from {@link Snapshot}s that Redis took
 * atomically while the sale was open with no stock (sold_out_snapshot.lua), listing every buyer.
 * Stock can grow again only through release.lua, repair.lua, load_sale.lua or restock.lua, and each announces
 * the sale on the stock-returned channel; {@link #stockReturned} then drops the mark. Until a unit
 * comes back no one can be admitted, so no buyer can join the list behind the mark's back. Pub/sub
 * delivers at most once, so a mark also lives no longer than {@code ttl} (and never past the sale's
 * close): a missed announcement delays a returned unit's sale by at most that long.
 *
 * <p>A snapshot taken while a unit came back must not set a mark: each announcement advances the
 * sale's generation, and a snapshot counts only if the generation it started under still holds.
 */
public class SoldOutMarks {

    private static final Logger log = LoggerFactory.getLogger(SoldOutMarks.class);

    /**
     * What sold_out_snapshot.lua saw at one instant: the open sale had no stock.
     *
     * @param buyers every user id in the sale's buyers hash
     * @param untilClose how long until the sale closes, by Redis' clock; null when it never closes
     */
    public record Snapshot(Set<String> buyers, Duration untilClose) {

        public Snapshot {
            buyers = Set.copyOf(buyers);
        }
    }

    /** Takes a snapshot of a sale; empty when the sale is not sold out now (or too big to keep). */
    @FunctionalInterface
    public interface Snapshots {
        Optional<Snapshot> take(String saleId);
    }

    private record Mark(Set<String> buyers, long expiresAtNanos) {}

    private static final class Sale {
        private Mark mark;
        private long generation;
        private final AtomicBoolean taking = new AtomicBoolean();
    }

    private final ConcurrentHashMap<String, Sale> sales = new ConcurrentHashMap<>();
    private final Snapshots snapshots;
    private final Duration ttl;
    private final LongSupplier nanoTime;

    /**
     * @param ttl the longest a mark answers without asking Redis again; zero turns marks off
     * @param nanoTime the monotonic clock ({@link System#nanoTime} outside tests)
     */
    public SoldOutMarks(Snapshots snapshots, Duration ttl, LongSupplier nanoTime) {
        this.snapshots = snapshots;
        this.ttl = ttl;
        this.nanoTime = nanoTime;
    }

    /**
     * True when a live mark says the sale is sold out and the user is none of its buyers. A mark in
     * the second half of its life is re-checked first, by this one request (the others go on with
     * the mark), so a busy sale's mark is renewed before it runs out instead of sending a wave of
     * requests to Redis each time it does.
     */
    public boolean refuses(String saleId, String userId) {
        Sale sale = sales.get(saleId);
        if (sale == null) {
            return false;
        }
        Mark mark = markOf(sale);
        if (!live(mark)) {
            return false;
        }
        if (mark.expiresAtNanos() - nanoTime.getAsLong() < ttl.toNanos() / 2) {
            take(saleId, sale);
            mark = markOf(sale);
        }
        return live(mark) && !mark.buyers().contains(userId);
    }

    /**
     * Redis just answered SOLD_OUT for the sale: take a snapshot and mark the sale, unless a live mark
     * is there or another request is taking one. A failed snapshot leaves the sale unmarked.
     */
    public void soldOut(String saleId) {
        if (ttl.isZero()) {
            return;
        }
        Sale sale = sales.computeIfAbsent(saleId, id -> new Sale());
        Mark mark = markOf(sale);
        if (!live(mark)) {
            take(saleId, sale);
        }
    }

    /**
     * Takes a snapshot unless another request is taking one, and makes it the sale's mark if no unit
     * came back meanwhile; a snapshot saying the sale is not sold out, or failing, drops the mark.
     */
    private void take(String saleId, Sale sale) {
        if (!sale.taking.compareAndSet(false, true)) {
            return;
        }
        try {
            long generation;
            synchronized (sale) {
                generation = sale.generation;
            }
            long start = nanoTime.getAsLong();
            Mark next =
                    snapshots.take(saleId).map(found -> markFrom(found, start)).orElse(null);
            synchronized (sale) {
                if (sale.generation == generation) {
                    sale.mark = next;
                }
            }
        } catch (RuntimeException e) {
            log.debug("no sold-out mark for sale {}: {}", saleId, e.toString());
            synchronized (sale) {
                sale.mark = null;
            }
        } finally {
            sale.taking.set(false);
        }
    }

    private Mark markFrom(Snapshot snapshot, long takenAtNanos) {
        Duration life =
                snapshot.untilClose() == null || ttl.compareTo(snapshot.untilClose()) < 0 ? ttl : snapshot.untilClose();
        return new Mark(snapshot.buyers(), takenAtNanos + life.toNanos());
    }

    private static Mark markOf(Sale sale) {
        synchronized (sale) {
            return sale.mark;
        }
    }

    /** A unit of the sale may have come back: drop its mark, and any snapshot still being taken. */
    public void stockReturned(String saleId) {
        Sale sale = sales.get(saleId);
        if (sale == null) {
            return;
        }
        synchronized (sale) {
            sale.generation++;
            sale.mark = null;
        }
    }

    private boolean live(Mark mark) {
        return mark != null && nanoTime.getAsLong() - mark.expiresAtNanos() < 0;
    }
}
