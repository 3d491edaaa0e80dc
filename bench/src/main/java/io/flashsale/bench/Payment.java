package io.flashsale.bench;

import static io.flashsale.workflows.purchase.PurchaseStatus.PENDING_PAYMENT;

import io.flashsale.testkit.ApiClient;
import io.flashsale.workflows.purchase.PurchaseStatus;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * One winner paying: the buyer's client waits until the purchase awaits payment (its order is
 * written), the payment service confirms the money, and when the answer is 202 (outcome not known
 * yet) or a refusal, follows the purchase to its final status. The outcome is that status: PAID,
 * EXPIRED when the pay deadline came first, CANCELLED or REJECTED. {@code token}: the buyer's, to
 * follow the purchase; {@code paymentsToken}: the payment service's; {@code patience}: the longest
 * each wait lasts.
 */
public record Payment(ApiClient api, String token, String paymentsToken, String purchaseId, Duration patience) {

    private static final Duration POLL = Duration.ofMillis(500);

    /** Pays once the order exists; the purchase's final status. */
    public String outcome() throws Exception {
        String status = await("its order", s -> is(s, PENDING_PAYMENT) || isFinal(s));
        if (!is(status, PENDING_PAYMENT)) {
            return status;
        }
        ApiClient.Response answer = api.pay(paymentsToken, purchaseId, "pay-" + purchaseId);
        if (answer.status() == 200) {
            return answer.body().path("status").asText();
        }
        if (answer.status() == 202 || answer.status() == 409) {
            return await("its final status (payment answered " + answer.status() + ")", Payment::isFinal);
        }
        throw new IllegalStateException("paying " + purchaseId + ": " + answer.status() + " " + answer.body());
    }

    private static boolean is(String status, PurchaseStatus expected) {
        return status.equals(expected.name());
    }

    private static boolean isFinal(String status) {
        return Arrays.stream(PurchaseStatus.values()).anyMatch(s -> s.isFinal() && is(status, s));
    }

    private String await(String what, Predicate<String> done) throws Exception {
        return Await.until(what + " of " + purchaseId, patience, POLL, this::status, done);
    }

    /** Its status, or the answer's status code and problem type when it has none. */
    private String status() {
        ApiClient.Response answer = api.status(token, purchaseId);
        return answer.status() == 200
                ? answer.body().path("status").asText()
                : "http-" + answer.status() + " " + answer.problemType();
    }
}
