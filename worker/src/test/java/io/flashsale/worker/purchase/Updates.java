package io.flashsale.worker.purchase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.flashsale.workflows.purchase.PaymentRequest;
import io.flashsale.workflows.purchase.PurchaseFailure;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseView;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.UpdateOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.client.WorkflowUpdateHandle;
import io.temporal.client.WorkflowUpdateStage;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Pay and cancel sent as the api sends them: the call returns once the workflow accepted the Update
 * (its validator passed) or refused it; the handle tells the outcome.
 */
final class Updates {

    private final WorkflowClient client;
    private final String workflowId;

    private Updates(WorkflowClient client, String workflowId) {
        this.client = client;
        this.workflowId = workflowId;
    }

    static Updates of(WorkflowClient client, PurchaseRequest request) {
        return new Updates(client, request.purchaseId());
    }

    WorkflowUpdateHandle<PurchaseView> pay(String paymentId) {
        return client.newUntypedWorkflowStub(workflowId).startUpdate(accepted("pay"), new PaymentRequest(paymentId));
    }

    WorkflowUpdateHandle<PurchaseView> cancel() {
        return client.newUntypedWorkflowStub(workflowId).startUpdate(accepted("cancel"));
    }

    /** The failure the validator refused the payment with. */
    PurchaseFailure payRefusal(String paymentId) {
        return refusal(() -> pay(paymentId));
    }

    /** The failure the validator refused the cancel with. */
    PurchaseFailure cancelRefusal() {
        return refusal(this::cancel);
    }

    /**
     * Sends the Update and asserts the workflow's validator refused it: it failed, and the workflow
     * never accepted it (no UpdateAccepted event of its id in the history). Returns the {@link
     * PurchaseFailure} whose type the failure carries, or null.
     */
    private PurchaseFailure refusal(Supplier<WorkflowUpdateHandle<PurchaseView>> update) {
        WorkflowUpdateHandle<PurchaseView> handle = update.get();
        assertThat(acceptedUpdates())
                .as("refused before the workflow accepted it")
                .doesNotContain(handle.getId());
        Throwable refused = catchThrowable(() -> handle.getResult(10, TimeUnit.SECONDS));
        assertThat(refused).isInstanceOf(WorkflowUpdateException.class);
        return Arrays.stream(PurchaseFailure.values())
                .filter(failure -> failure.matches(refused))
                .findFirst()
                .orElse(null);
    }

    private List<String> acceptedUpdates() {
        return client.fetchHistory(workflowId).getEvents().stream()
                .filter(event -> event.getEventType() == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED)
                .map(event -> event.getWorkflowExecutionUpdateAcceptedEventAttributes()
                        .getAcceptedRequest()
                        .getMeta()
                        .getUpdateId())
                .toList();
    }

    private static UpdateOptions<PurchaseView> accepted(String update) {
        return UpdateOptions.newBuilder(PurchaseView.class)
                .setUpdateName(update)
                .setWaitForStage(WorkflowUpdateStage.ACCEPTED)
                .build();
    }
}
