package io.flashsale.cli.demo;

import io.flashsale.launcher.Await;
import io.flashsale.testkit.ApiClient;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Winners paying as soon as admitted: {@code --pay-share} of them, evenly over the order of admission. Each
 * follows its purchase to a final status, paying as the payment service once its order awaits payment;
 * the outcomes are counted (the final status, or "error").
 */
final class Payer implements AutoCloseable {

    private final ExecutorService pool = Executors.newFixedThreadPool(32);
    private final Set<String> winners = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> outcomes = new ConcurrentHashMap<>();
    private final AtomicInteger paying = new AtomicInteger();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final Demo demo;
    private final String sale;

    Payer(Demo demo, String sale) {
        this.demo = demo;
        this.sale = sale;
    }

    /** Whether the {@code index}-th winner (from 0) pays: {@code share} of any run of winners, evenly. */
    static boolean pays(int index, double share) {
        return Math.floor((index + 1) * share) > Math.floor(index * share);
    }

    /** {@code user}'s purchase was admitted (202): pays for it when the user falls in the share. */
    void admitted(String user) {
        int index = winners.size();
        if (winners.add(user) && pays(index, demo.options().payShare)) {
            paying.incrementAndGet();
            pool.execute(() -> outcomes.merge(outcome(PurchaseRequest.purchaseId(sale, user), user), 1L, Long::sum));
        }
    }

    private String outcome(String id, String user) {
        AtomicBoolean paid = new AtomicBoolean();
        try {
            return Await.until(
                    "the final status of " + id,
                    demo.options().patience(),
                    Duration.ofMillis(500),
                    () -> {
                        ApiClient.Response answer =
                                demo.api().status(demo.tokens().buyer(user), id);
                        String status = answer.status() == 200 ? answer.field("status") : "http-" + answer.status();
                        if (status.equals(PurchaseStatus.PENDING_PAYMENT.name()) && !paid.getAndSet(true)) {
                            demo.api()
                                    .pay(demo.tokens().payments(), id, "pay-" + id)
                                    .expect("paying " + id, 200, 202, 409);
                        }
                        return status;
                    },
                    Payer::isFinal);
        } catch (Exception e) {
            firstError.compareAndSet(null, String.valueOf(e.getMessage()));
            return "error";
        }
    }

    private static boolean isFinal(String status) {
        return !status.startsWith("http-") && PurchaseStatus.valueOf(status).isFinal();
    }

    /** Whether every payment started has its outcome. */
    boolean done() {
        return known() == paying.get();
    }

    private long known() {
        return outcomes.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Each payment's outcome so far: the purchase's final status, or "error". */
    Map<String, Long> outcomes() {
        return new TreeMap<>(outcomes);
    }

    @Override
    public String toString() {
        String error = firstError.get() == null ? "" : " (first error: " + firstError.get() + ")";
        return known() + " of " + paying + " payments known " + outcomes() + error;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
