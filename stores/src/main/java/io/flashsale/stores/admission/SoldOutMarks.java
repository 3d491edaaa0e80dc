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
 * Stock can grow again only through release.lua, repair.lua or load_sale.lua, and each announces
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
    public record Snapshot(Set<String> buyers, Duration untilClose) {}

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

    /** True when a live mark says the sale is sold out and the user is none of its buyers. */
    public boolean refuses(String saleId, String userId) {
        Sale sale = sales.get(saleId);
        if (sale == null) {
            return false;
        }
        Mark mark;
        synchronized (sale) {
            mark = sale.mark;
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
        long generation;
        synchronized (sale) {
            if (live(sale.mark)) {
                return;
            }
            generation = sale.generation;
        }
        if (!sale.taking.compareAndSet(false, true)) {
            return;
        }
        try {
            long start = nanoTime.getAsLong();
            Optional<Snapshot> seen = snapshots.take(saleId);
            if (seen.isEmpty()) {
                return;
            }
            Duration life =
                    seen.get().untilClose() == null || ttl.compareTo(seen.get().untilClose()) < 0
                            ? ttl
                            : seen.get().untilClose();
            Mark mark = new Mark(Set.copyOf(seen.get().buyers()), start + life.toNanos());
            synchronized (sale) {
                if (sale.generation == generation) {
                    sale.mark = mark;
                }
            }
        } catch (RuntimeException e) {
            log.debug("no sold-out mark for sale {}: {}", saleId, e.toString());
        } finally {
            sale.taking.set(false);
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

    /** Drops every mark, e.g. when announcements may have been missed (the subscription restarted). */
    public void clear() {
        sales.keySet().forEach(this::stockReturned);
    }

    private boolean live(Mark mark) {
        return mark != null && nanoTime.getAsLong() - mark.expiresAtNanos() < 0;
    }
}
