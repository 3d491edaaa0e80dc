package io.flashsale.workflows.purchase;

import io.flashsale.workflows.PurchaseSearchAttributes;
import io.flashsale.workflows.TaskQueues;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.api.workflowservice.v1.DeleteWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import java.time.Duration;
import java.util.Map;

/**
 * Starts a purchase workflow, idempotently: the workflow id is the purchase id and a closed
 * workflow is never reused, so the api, a retried request and the admission relay can all call it.
 * The one exception is a purchase that ended REJECTED: its buyer has no order and may try again,
 * so a new admission starts a new run of it. Each run carries the admission it was started for (its
 * memo {@value #ADMITTED_AT}), so a start tells its own run from an earlier admission's.
 */
public final class PurchaseStarter {

    /** Memo key: the admission (its outbox entry's time, epoch millis) a run was started for. */
    public static final String ADMITTED_AT = "admittedAt";

    /**
     * The purchase id's last run belongs to an earlier admission and is still open (a REJECTED run
     * closing after its void forgot the buyer, who was admitted again). Retry later: the new
     * admission starts once that run has closed. Its entry must stay in the stream until then.
     */
    public static final class EarlierRunStillOpen extends RuntimeException {
        EarlierRunStillOpen(String purchaseId) {
            super("an earlier admission's run of " + purchaseId + " is still open");
        }
    }

    /** How long a rehearsed run lives when its delete did not happen (the server refused it). */
    static final Duration REHEARSAL_TIMEOUT = Duration.ofMinutes(1);

    private final WorkflowClient client;

    public PurchaseStarter(WorkflowClient client) {
        this.client = client;
    }

    /**
     * @return true when this call started the workflow, false when this admission's run existed
     * @throws EarlierRunStillOpen the last run is an earlier admission's and has not closed yet
     */
    public boolean start(PurchaseRequest request) {
        if (start(request, WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)) {
            return true;
        }
        WorkflowExecutionDescription last =
                client.newUntypedWorkflowStub(request.purchaseId()).describe();
        if (isOwnRun(last, request)) {
            return false;
        }
        if (last.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
            throw new EarlierRunStillOpen(request.purchaseId());
        }
        return endedRejected(last) && start(request, WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE);
    }

    /**
     * A start's whole path, client and server, that leaves nothing behind: starts the workflow on
     * {@link TaskQueues#REHEARSAL}, which no worker polls, then deletes that run (its run id, so
     * never another). A run whose delete fails times out after {@link #REHEARSAL_TIMEOUT}. For the
     * api's warm-up, whose purchase ids belong to a private sale with a random id.
     *
     * @throws WorkflowExecutionAlreadyStarted the purchase id has a run: it is not deleted
     */
    public void rehearse(PurchaseRequest request) {
        WorkflowOptions options = WorkflowOptions.newBuilder(
                        options(request, WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE))
                .setTaskQueue(TaskQueues.REHEARSAL)
                .setWorkflowExecutionTimeout(REHEARSAL_TIMEOUT)
                .build();
        WorkflowExecution run =
                WorkflowClient.start(client.newWorkflowStub(PurchaseWorkflow.class, options)::purchase, request);
        client.getWorkflowServiceStubs()
                .blockingStub()
                .deleteWorkflowExecution(DeleteWorkflowExecutionRequest.newBuilder()
                        .setNamespace(client.getOptions().getNamespace())
                        .setWorkflowExecution(run)
                        .build());
    }

    private boolean start(PurchaseRequest request, WorkflowIdReusePolicy reuse) {
        PurchaseWorkflow workflow = client.newWorkflowStub(PurchaseWorkflow.class, options(request, reuse));
        try {
            WorkflowClient.start(workflow::purchase, request);
            return true;
        } catch (WorkflowExecutionAlreadyStarted alreadyStarted) {
            return false;
        }
    }

    /**
     * The run was started for this admission. Where either side does not know its admission (a run
     * started before the memo existed, a request with admission time 0) the run is taken as its own.
     */
    private static boolean isOwnRun(WorkflowExecutionDescription run, PurchaseRequest request) {
        Long admittedAt = run.getMemo(ADMITTED_AT, Long.class, Long.class);
        return admittedAt == null
                || admittedAt == 0
                || request.admittedAtMillis() == 0
                || admittedAt == request.admittedAtMillis();
    }

    /** The run is closed and ended REJECTED (its PurchaseStatus search attribute). */
    private static boolean endedRejected(WorkflowExecutionDescription run) {
        return PurchaseStatus.REJECTED
                .name()
                .equals(run.getTypedSearchAttributes().get(PurchaseSearchAttributes.STATUS));
    }

    static WorkflowOptions options(PurchaseRequest request, WorkflowIdReusePolicy reuse) {
        return WorkflowOptions.newBuilder()
                .setWorkflowId(request.purchaseId())
                .setTaskQueue(TaskQueues.PURCHASE)
                .setWorkflowIdReusePolicy(reuse)
                .setMemo(Map.of(ADMITTED_AT, request.admittedAtMillis()))
                // started by a process that runs the purchase worker (the worker's relay), the first
                // workflow task comes back in the start's answer and runs there: no trip through
                // matching; a process without that worker (the api) starts as before
                .setDisableEagerExecution(false)
                .setTypedSearchAttributes(SearchAttributes.newBuilder()
                        .set(PurchaseSearchAttributes.SALE_ID, request.saleId())
                        .set(PurchaseSearchAttributes.USER_ID, request.userId())
                        .set(PurchaseSearchAttributes.STATUS, PurchaseStatus.RESERVED.name())
                        .build())
                .setStaticSummary("Purchase of sale " + request.saleId() + " by user " + request.userId())
                .setStaticDetails("**Purchase:** " + request.purchaseId() + "\n\n**Pay timeout:** "
                        + request.payTimeoutSeconds() + " s after the order is written")
                .build();
    }
}
