package io.flashsale.e2e;

import io.flashsale.api.TestTokens;
import io.flashsale.testkit.ApiClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Buyers of one sale who start one after the other at a fixed spacing, each sending one purchase and
 * sending it again with the same Idempotency-Key while it fails (5xx, 429, no answer): a burst that
 * is in flight across a fault and still gets an answer for every buyer.
 */
final class Flood {

    /** The buyer's last answer (status and problem type, "" for none) and how many requests it took. */
    record Answer(String user, int status, String problemType, int attempts) {}

    private static final Duration RETRY_PAUSE = Duration.ofMillis(300);

    private final ApiClient api;
    private final String saleId;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> failedAttempts = new ConcurrentHashMap<>();
    private final ExecutorService buyers;

    private Flood(ApiClient api, String saleId, int users) {
        this.api = api;
        this.saleId = saleId;
        this.buyers = Executors.newFixedThreadPool(users);
    }

    /** Starts buyer {@code i} of {@code users} after {@code i * spacing}; gives up on a buyer after {@code patience}. */
    static Flood start(ApiClient api, String saleId, List<String> users, Duration spacing, Duration patience) {
        Flood flood = new Flood(api, saleId, users.size());
        for (int i = 0; i < users.size(); i++) {
            String user = users.get(i);
            long startAfter = spacing.toMillis() * i;
            flood.buyers.submit(() -> flood.buy(user, startAfter, patience));
        }
        flood.buyers.shutdown();
        return flood;
    }

    /** Waits until at least {@code count} buyers have their answer. */
    void awaitAnswers(int count, Duration timeout) {
        Waits.polling(Duration.ofMillis(10), "at least " + count + " buyers answered within " + timeout)
                .atMost(timeout)
                .until(() -> answers.size() >= count);
    }

    /** Every buyer's answer, once all have one. */
    Map<String, Answer> finish(Duration timeout) throws InterruptedException {
        if (!buyers.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            buyers.shutdownNow();
            throw new AssertionError("buyers still without an answer after " + timeout + ": " + answers.size());
        }
        return Map.copyOf(answers);
    }

    /** Requests that failed and were sent again, by their status (0: no answer within 20 s). */
    Map<Integer, Integer> failedAttempts() {
        Map<Integer, Integer> failed = new TreeMap<>();
        failedAttempts.forEach((status, count) -> failed.put(status, count.get()));
        return failed;
    }

    private Void buy(String user, long startAfterMillis, Duration patience) throws InterruptedException {
        Thread.sleep(startAfterMillis); // elapsed time: the buyers arrive spread over time, as asked
        long deadline = System.nanoTime() + patience.toNanos();
        for (int attempt = 1; ; attempt++) {
            ApiClient.Response response = attempt(user);
            boolean retry = response == null || response.status() >= 500 || response.status() == 429;
            if (!retry || System.nanoTime() > deadline) {
                answers.put(user, answer(user, response, attempt));
                return null;
            }
            failedAttempts
                    .computeIfAbsent(response == null ? 0 : response.status(), status -> new AtomicInteger())
                    .incrementAndGet();
            Thread.sleep(RETRY_PAUSE.toMillis()); // a buyer's pause before trying again, as a client would
        }
    }

    private ApiClient.Response attempt(String user) {
        try {
            return api.waitingUpTo(Duration.ofSeconds(20)).purchase(TestTokens.buyer(user), saleId, "key-" + user);
        } catch (RuntimeException noAnswer) {
            return null;
        }
    }

    private static Answer answer(String user, ApiClient.Response response, int attempts) {
        return response == null
                ? new Answer(user, 0, "", attempts)
                : new Answer(user, response.status(), response.status() < 300 ? "" : response.problemType(), attempts);
    }
}
