package io.flashsale.cli.demo;

import static io.flashsale.workflows.purchase.PurchaseStatus.PENDING_PAYMENT;

import io.flashsale.launcher.Await;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * Winners paying as soon as admitted: {@code share} of them, evenly over the order of admission.
 * Each waits for its order, pays as the payment service, and after a 202 (outcome not known yet) or a
 * refusal follows the purchase to its final status; counts the outcomes (a final status, or "error").
 */
final class Payer implements AutoCloseable {

    /** Payments known of those started, by outcome, and the first error (null: none). */
    record Progress(int known, int paying, Map<String, Long> outcomes, String firstError) {

        boolean done() {
            return known == paying;
        }

        @Override
        public String toString() {
            return known + " of " + paying + " payments known " + outcomes
                    + (firstError == null ? "" : " (first error: " + firstError + ")");
        }
    }

    private static final Duration POLL = Duration.ofMillis(500);

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
            pool.execute(() -> {
                String outcome;
                try {
                    outcome = pay(user);
                } catch (Exception e) {
                    firstError.compareAndSet(null, String.valueOf(e.getMessage()));
                    outcome = "error";
                }
                outcomes.merge(outcome, 1L, Long::sum);
                known.incrementAndGet();
            });
        }
    }

    /** Pays once the order exists; the purchase's final status. */
    private String pay(String user) throws Exception {
        String id = PurchaseRequest.purchaseId(sale, user);
        String token = tokens.buyer(user);
        String status = await(id, token, "its order", s -> s.equals(PENDING_PAYMENT.name()) || isFinal(s));
        if (!status.equals(PENDING_PAYMENT.name())) {
            return status;
        }
        ApiClient.Response answer = api.pay(tokens.payments(), id, "pay-" + id);
        if (answer.status() == 200) {
            return answer.body().path("status").asText();
        }
        if (answer.status() != 202 && answer.status() != 409) {
            throw new IllegalStateException("paying " + id + ": " + answer.status() + " " + answer.body());
        }
        return await(id, token, "its final status (payment answered " + answer.status() + ")", Payer::isFinal);
    }

    private static boolean isFinal(String status) {
        return Arrays.stream(PurchaseStatus.values())
                .anyMatch(s -> s.isFinal() && s.name().equals(status));
    }

    /** Reads the purchase's status (or the answer's code and problem type when it has none) until {@code done}. */
    private String await(String id, String token, String what, Predicate<String> done) throws Exception {
        return Await.until(
                what + " of " + id,
                patience,
                POLL,
                () -> {
                    ApiClient.Response answer = api.status(token, id);
                    return answer.status() == 200
                            ? answer.body().path("status").asText()
                            : "http-" + answer.status() + " " + answer.problemType();
                },
                done);
    }

    Progress progress() {
        return new Progress(known.get(), paying.get(), new TreeMap<>(outcomes), firstError.get());
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
