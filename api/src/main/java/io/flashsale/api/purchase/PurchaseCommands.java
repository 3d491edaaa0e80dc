package io.flashsale.api.purchase;

import io.flashsale.api.ApiProperties;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseFailure;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseView;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Service;

/**
 * Pay and cancel, as Workflow Updates: the workflow decides once between payment, cancel and the
 * deadline. A refused update, or one sent to a finished workflow, is answered from the purchase's
 * current state, so repeating a successful call (same payment id, cancel twice) answers 200.
 *
 * <p>No HTTP thread waits for an Update: the calls to Temporal run on the commands' own bounded
 * executor and the request is answered asynchronously, so pay and cancel piling up (MySQL down,
 * {@code markPaid} retrying) never take the threads admission answers on. An outcome not known
 * within {@code flashsale.api.commands.answer-within} is answered 202 with the purchase link; the
 * Update goes on in the workflow and its outcome shows in the purchase's status.
 */
@Service
class PurchaseCommands {

    private final PurchaseLookup lookup;
    private final Executor executor;
    private final ApiProperties.Commands settings;

    PurchaseCommands(
            PurchaseLookup lookup, @Qualifier("purchaseCommandExecutor") Executor executor, ApiProperties properties) {
        this.lookup = lookup;
        this.executor = executor;
        this.settings = properties.commands();
    }

    /** Idempotent by payment id (the workflow's validator and UNIQUE(payment_id) in MySQL). */
    CompletableFuture<ResponseEntity<PurchaseResponse>> pay(PurchaseId id, String paymentId) {
        return send(
                new Command(id, "pay", new PaymentRequest(paymentId)),
                current -> current.status() == PurchaseStatus.PAID && paymentId.equals(current.paymentId()),
                ApiProblem.PAYMENT_REJECTED);
    }

    /** Idempotent: a cancelled purchase stays cancelled and answers so. */
    CompletableFuture<ResponseEntity<PurchaseResponse>> cancel(PurchaseId id) {
        return send(
                new Command(id, "cancel"),
                current -> current.status() == PurchaseStatus.CANCELLED,
                ApiProblem.CANCEL_REJECTED);
    }

    private CompletableFuture<ResponseEntity<PurchaseResponse>> send(
            Command command, Predicate<PurchaseResponse> alreadyDone, ApiProblem refusal) {
        long waitMillis = settings.answerWithin().toMillis();
        return CompletableFuture.supplyAsync(() -> start(command), executor)
                .thenCompose(handle -> handle.getResultAsync(waitMillis, TimeUnit.MILLISECONDS))
                .thenApply(view -> ResponseEntity.ok(PurchaseResponse.of(view)))
                .completeOnTimeout(null, waitMillis, TimeUnit.MILLISECONDS)
                .handleAsync(
                        (answer, failure) -> answer(command.id(), answer, failure, alreadyDone, refusal), executor);
    }

    /** Returns once the workflow accepted the Update (its validator passed); the handler may still run. */
    private WorkflowUpdateHandle<PurchaseView> start(Command command) {
        UpdateOptions<PurchaseView> options = UpdateOptions.newBuilder(PurchaseView.class)
                .setUpdateName(command.update())
                .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
                .build();
        return lookup.untyped(command.id()).startUpdate(options, command.args());
    }

    private ResponseEntity<PurchaseResponse> answer(
            PurchaseId id,
            ResponseEntity<PurchaseResponse> outcome,
            Throwable failure,
            Predicate<PurchaseResponse> alreadyDone,
            ApiProblem refusal) {
        Throwable cause = Failures.root(failure);
        if (cause == null) {
            return outcome != null ? outcome : stillRunning(id);
        }
        if (cause instanceof TimeoutException) {
            return stillRunning(id);
        }
        if (cause instanceof WorkflowUpdateException || cause instanceof WorkflowNotFoundException) {
            return ResponseEntity.ok(refused(id, alreadyDone, refusal, why(cause)));
        }
        throw Failures.unchecked(cause);
    }

    /** 202: the outcome is not known yet; the purchase link tells it once the Update completed. */
    private ResponseEntity<PurchaseResponse> stillRunning(PurchaseId id) {
        PurchaseResponse current = lookup.find(id).orElseThrow(() -> notFound(id));
        return ResponseEntity.accepted()
                .location(URI.create(current.links().get("self")))
                .body(current);
    }

    private PurchaseResponse refused(
            PurchaseId id, Predicate<PurchaseResponse> alreadyDone, ApiProblem refusal, String why) {
        PurchaseResponse current = lookup.find(id).orElseThrow(() -> notFound(id));
        if (alreadyDone.test(current)) {
            return current;
        }
        throw new ProblemException(
                refusal,
                "purchase " + id.value() + " is " + current.status() + why,
                Map.of("purchaseStatus", current.status().name()));
    }

    /**
     * What the purchase's status does not tell: a payment id another order was paid with (the
     * purchase still awaits its payment, under another id). Empty for every other refusal.
     */
    private static String why(Throwable refusal) {
        return PurchaseFailure.PAYMENT_ID_IN_USE
                .find(refusal)
                .map(failure -> ": " + failure.getOriginalMessage())
                .orElse("");
    }

    static ProblemException notFound(PurchaseId id) {
        return new ProblemException(ApiProblem.PURCHASE_NOT_FOUND, "no purchase " + id.value());
    }

    /** One Workflow Update of one purchase. */
    private record Command(PurchaseId id, String update, Object... args) {}
}
