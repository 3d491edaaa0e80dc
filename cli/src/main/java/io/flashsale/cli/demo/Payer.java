package io.flashsale.cli.demo;

import io.flashsale.launcher.Await;
import io.flashsale.testkit.ApiClient;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Winners paying as soon as admitted: {@code --pay-share} of them, evenly over the order of admission.
 * Each follows its purchase to its final status, paying as the payment service once the order awaits
 * payment; that status, or "error", is the payment's outcome.
 */
final class Payer implements AutoCloseable {

    private final ExecutorService pool = Executors.newFixedThreadPool(32);
    private final List<CompletableFuture<String>> payments = new CopyOnWriteArrayList<>();
    private final Set<String> admitted = ConcurrentHashMap.newKeySet();
    private final AtomicInteger winners = new AtomicInteger();
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

    /** {@code user}'s purchase was admitted (202; a repeated one counts once): pays when the user falls in the share. */
    void admitted(String user) {
        if (admitted.add(user) && pays(winners.getAndIncrement(), demo.options().payShare)) {
            payments.add(
                    CompletableFuture.supplyAsync(() -> outcome(PurchaseRequest.purchaseId(sale, user), user), pool));
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
                            ApiClient.Response payment = demo.api()
                                    .pay(demo.tokens().payments(), id, "pay-" + id)
                                    .expect("paying " + id, 200, 202, 409);
                            // 200: the payment's outcome is known now; 202 or 409: the next read tells
                            return payment.status() == 200 ? payment.field("status") : status;
                        }
                        return status;
                    },
                    status -> !status.startsWith("http-")
                            && PurchaseStatus.valueOf(status).isFinal());
        } catch (Exception e) {
            firstError.compareAndSet(null, String.valueOf(e.getMessage()));
            return "error";
        }
    }

    /** Whether every payment started has its outcome. */
    boolean done() {
        return payments.stream().allMatch(CompletableFuture::isDone);
    }

    /** The outcomes known so far, counted. */
    Map<String, Long> outcomes() {
        return payments.stream()
                .filter(CompletableFuture::isDone)
                .collect(Collectors.groupingBy(CompletableFuture::join, TreeMap::new, Collectors.counting()));
    }

    @Override
    public String toString() {
        String error = firstError.get() == null ? "" : " (first error: " + firstError.get() + ")";
        long known = payments.stream().filter(CompletableFuture::isDone).count();
        return known + " of " + payments.size() + " payments known " + outcomes() + error;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
