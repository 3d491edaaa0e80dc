package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.stores.testing.Race;
import io.flashsale.testkit.ApiClient;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Buyers of one sale as the fault tests drive them over HTTP. */
final class Purchases {

    private final ApiClient api;
    private final String saleId;

    Purchases(ApiClient api, String saleId) {
        this.api = api;
        this.saleId = saleId;
    }

    /** Every user sends one purchase at the same moment; the responses in user order. */
    List<ApiClient.Response> race(List<String> users) throws InterruptedException {
        List<Callable<ApiClient.Response>> calls = new ArrayList<>();
        for (String user : users) {
            calls.add(() -> api.purchase(TestTokens.buyer(user), saleId, "key-" + user));
        }
        return Race.run(calls).stream().map(Race.Outcome::value).toList();
    }

    /**
     * The payment service confirms each purchase's payment (concurrently); asserts each one PAID. A payment whose request times out
     * (a worker died and Temporal is handing its tasks to another) or is answered 202 (outcome not
     * known within a few seconds) is sent again with the same payment id, as a buyer's client
     * would: paying is idempotent by payment id.
     */
    void pay(List<String> purchaseIds) throws InterruptedException {
        List<Callable<ApiClient.Response>> calls = new ArrayList<>();
        for (String id : purchaseIds) {
            calls.add(() -> payPatiently(id));
        }
        for (Race.Outcome<ApiClient.Response> paid : Race.run(calls)) {
            assertThat(paid.failure()).isNull();
            assertThat(paid.value().status()).as("%s", paid.value().body()).isEqualTo(200);
            assertThat(paid.value().body().path("status").asText()).isEqualTo("PAID");
        }
    }

    /**
     * The payment service sends each purchase's payment once (concurrently), with the payment id
     * {@link #pay} uses, and does not wait for the outcome: the first answers, in purchase order.
     */
    List<ApiClient.Response> sendPayments(List<String> purchaseIds) throws InterruptedException {
        List<Callable<ApiClient.Response>> calls = new ArrayList<>();
        for (String id : purchaseIds) {
            calls.add(() -> api.pay(TestTokens.payments(), id, "pay-" + id));
        }
        List<ApiClient.Response> answers = new ArrayList<>();
        for (Race.Outcome<ApiClient.Response> sent : Race.run(calls)) {
            assertThat(sent.failure()).isNull();
            answers.add(sent.value());
        }
        return answers;
    }

    /**
     * Pays each purchase (concurrently) the moment its order is written and asserts each PAID; see
     * {@link #settleAsOrdered}.
     */
    void payAsOrdered(List<String> purchaseIds, Duration orderedWithin, Duration answeredWithin)
            throws InterruptedException {
        settleAsOrdered(purchaseIds, List.of(), orderedWithin, answeredWithin);
    }

    /**
     * The payment service pays {@code paid} and the buyers cancel {@code cancelled}, each purchase
     * (all concurrently) the moment its order is written; asserts each PAID or CANCELLED. Each waits
     * up to {@code orderedWithin} for its order (status PENDING_PAYMENT, polled every 200 ms), then
     * its call is sent, and sent again on 202, 503 or a timed-out request, for {@code answeredWithin} at
     * most: from its order to its payment or cancel a purchase waits one status poll and {@code
     * answeredWithin}, so a pay timeout longer than that cannot overtake it.
     */
    void settleAsOrdered(List<String> paid, List<String> cancelled, Duration orderedWithin, Duration answeredWithin)
            throws InterruptedException {
        List<Callable<ApiClient.Response>> calls = new ArrayList<>();
        for (String id : paid) {
            calls.add(() -> onceOrdered(id, orderedWithin, answeredWithin, timeout -> api.waitingUpTo(timeout)
                    .pay(TestTokens.payments(), id, "pay-" + id)));
        }
        for (String id : cancelled) {
            calls.add(() -> onceOrdered(id, orderedWithin, answeredWithin, timeout -> api.waitingUpTo(timeout)
                    .cancel(owner(id), id)));
        }
        List<Race.Outcome<ApiClient.Response>> outcomes = Race.run(calls);
        for (int i = 0; i < outcomes.size(); i++) {
            Race.Outcome<ApiClient.Response> done = outcomes.get(i);
            assertThat(done.failure()).isNull();
            assertThat(done.value().status()).as("%s", done.value().body()).isEqualTo(200);
            assertThat(done.value().body().path("status").asText()).isEqualTo(i < paid.size() ? "PAID" : "CANCELLED");
        }
    }

    private ApiClient.Response onceOrdered(
            String purchaseId,
            Duration orderedWithin,
            Duration answeredWithin,
            Function<Duration, ApiClient.Response> call)
            throws InterruptedException {
        awaitStatus(List.of(purchaseId), "PENDING_PAYMENT", orderedWithin);
        return untilKnownWithin(call, answeredWithin);
    }

    /**
     * Sends the call (given the time left as its request timeout) again while it times out or
     * answers 202 or 503, for {@code within} in all; the last answer.
     */
    private static ApiClient.Response untilKnownWithin(Function<Duration, ApiClient.Response> call, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            Duration left = Duration.ofNanos(
                    Math.max(deadline - System.nanoTime(), Duration.ofSeconds(1).toNanos()));
            try {
                ApiClient.Response response = call.apply(left);
                // 202: not decided yet; 503: Temporal could not be asked (a host taking over)
                boolean again = response.status() == 202 || response.status() == 503;
                if (!again || System.nanoTime() > deadline) {
                    return response;
                }
                Thread.sleep(500);
            } catch (UncheckedIOException timedOut) {
                if (System.nanoTime() > deadline) {
                    throw timedOut;
                }
            }
        }
    }

    private ApiClient.Response payPatiently(String purchaseId) throws InterruptedException {
        return untilKnown(() -> api.pay(TestTokens.payments(), purchaseId, "pay-" + purchaseId));
    }

    /** Sends the call again while it times out (5 times) or answers 202 (up to 60 s). */
    private static ApiClient.Response untilKnown(Callable<ApiClient.Response> call) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (int timeouts = 0; ; ) {
            try {
                ApiClient.Response response = call.call();
                if (response.status() != 202 || System.nanoTime() > deadline) {
                    return response;
                }
                Thread.sleep(500);
            } catch (UncheckedIOException timedOut) {
                if (++timeouts == 5) {
                    throw timedOut;
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    void cancel(List<String> purchaseIds) throws InterruptedException {
        for (String id : purchaseIds) {
            ApiClient.Response cancelled = untilKnown(() -> api.cancel(owner(id), id));
            assertThat(cancelled.status()).as("%s", cancelled.body()).isEqualTo(200);
            assertThat(cancelled.body().path("status").asText()).isEqualTo("CANCELLED");
        }
    }

    /**
     * Sends each cancel from its own thread without waiting: a cancel answers once the unit is back,
     * which takes as long as the stores are down. The outcome shows in the purchases' status.
     */
    List<Thread> cancelInBackground(List<String> purchaseIds) {
        List<Thread> threads = new ArrayList<>();
        for (String id : purchaseIds) {
            Thread cancel = new Thread(() -> {
                try {
                    api.cancel(owner(id), id);
                } catch (RuntimeException timedOut) {
                    // the request may time out; the workflow got the cancel and carries it out
                }
            });
            cancel.start();
            threads.add(cancel);
        }
        return threads;
    }

    /** Waits until every purchase has {@code status}; on timeout says what statuses they have now. */
    void awaitStatus(List<String> purchaseIds, String status, Duration timeout) {
        Waits.polling(Duration.ofMillis(200), "all of %s %s in time".formatted(purchaseIds, status))
                .atMost(timeout)
                .until(() -> statuses(purchaseIds), now -> now.keySet().stream().allMatch(status::equals));
    }

    /** Status to number of purchases. */
    Map<String, Long> statuses(List<String> purchaseIds) {
        return purchaseIds.stream().collect(Collectors.groupingBy(this::status, Collectors.counting()));
    }

    String status(String purchaseId) {
        return api.status(owner(purchaseId), purchaseId).body().path("status").asText();
    }

    /** The earliest pay deadline of the purchases (they await payment). */
    Instant firstDeadline(List<String> purchaseIds) {
        return purchaseIds.stream()
                .map(id -> Instant.parse(
                        api.status(owner(id), id).body().path("payDeadline").asText()))
                .min(Instant::compareTo)
                .orElseThrow();
    }

    String purchaseId(String user) {
        return PurchaseRequest.purchaseId(saleId, user);
    }

    List<String> purchaseIds(List<String> users) {
        return users.stream().map(this::purchaseId).toList();
    }

    static List<String> users(String prefix, int count) {
        List<String> users = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            users.add(prefix + i);
        }
        return users;
    }

    /** purchase-{saleId}-{userId}: the owner's token, as the buyer would hold it. */
    static String owner(String purchaseId) {
        return TestTokens.buyer(purchaseId.substring(purchaseId.indexOf('-', "purchase-".length()) + 1));
    }
}
