package io.flashsale.cli.demo;

import io.flashsale.bench.Await;
import io.flashsale.bench.Payment;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Winners paying as soon as their purchase is admitted: {@code share} of them, spread evenly over
 * the order of admission, each a {@link Payment} on a small pool of threads. Counts the outcomes.
 */
final class Payer implements AutoCloseable {

    /** Payments known of those started, by outcome (final status, or "error"); the first error (null: none). */
    record Progress(int known, int paying, Map<String, Long> outcomes, String firstError) {

        @Override
        public String toString() {
            return known + " of " + paying + " payments known " + outcomes
                    + (firstError == null ? "" : " (first error: " + firstError + ")");
        }
    }

    private final ApiClient api;
    private final Tokens tokens;
    private final String sale;
    private final double share;
    private final Duration patience;
    private final ExecutorService pool = Executors.newFixedThreadPool(32);
    private final Set<String> winners = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> outcomes = new ConcurrentHashMap<>();
    private final AtomicInteger paying = new AtomicInteger();
    private final AtomicInteger known = new AtomicInteger();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    /** {@code patience}: the longest a payment waits for its order, and then for its outcome. */
    Payer(ApiClient api, Tokens tokens, String sale, double share, Duration patience) {
        this.api = api;
        this.tokens = tokens;
        this.sale = sale;
        this.share = share;
        this.patience = patience;
    }

    /** Whether the {@code index}-th winner (from 0) pays: {@code share} of any run of winners, evenly. */
    static boolean pays(int index, double share) {
        return Math.floor((index + 1) * share) > Math.floor(index * share);
    }

    /** {@code user}'s purchase was admitted (202): pays for it when the user falls in the share. */
    void admitted(String user) {
        int index = winners.size();
        if (winners.add(user) && pays(index, share)) {
            paying.incrementAndGet();
            pool.execute(() -> pay(user));
        }
    }

    private void pay(String user) {
        String outcome;
        try {
            String purchaseId = PurchaseRequest.purchaseId(sale, user);
            outcome = new Payment(api, tokens.buyer(user), tokens.payments(), purchaseId, patience).outcome();
        } catch (Exception e) {
            firstError.compareAndSet(null, String.valueOf(e.getMessage()));
            outcome = "error";
        }
        outcomes.merge(outcome, 1L, Long::sum);
        known.incrementAndGet();
    }

    Progress progress() {
        return new Progress(known.get(), paying.get(), new TreeMap<>(outcomes), firstError.get());
    }

    /** Waits until every payment started so far knows its outcome. */
    void awaitOutcomes(Duration timeout) throws Exception {
        Await.until("the outcome of every payment sent", timeout, this::progress, p -> p.known() == p.paying());
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
