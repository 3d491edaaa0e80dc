package io.flashsale.workflows.purchase;

import io.flashsale.workflows.PurchaseSearchAttributes;
import io.flashsale.workflows.TaskQueues;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;

/**
 * Starts a purchase workflow, idempotently: the workflow id is the purchase id and a closed
 * workflow is never reused, so the api, a retried request and the admission relay can all call it.
 * The one exception is a purchase that ended REJECTED: its buyer has no order and may try again,
 * so a new admission starts a new run of it.
 */
public final class PurchaseStarter {

    private final WorkflowClient client;

    public PurchaseStarter(WorkflowClient client) {
        this.client = client;
    }

    /** @return true when this call started the workflow, false when it existed already */
    public boolean start(PurchaseRequest request) {
        return start(request, WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
                || (endedRejected(request)
                        && start(request, WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE));
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

    /** The purchase's last run is closed and ended REJECTED (its PurchaseStatus search attribute). */
    private boolean endedRejected(PurchaseRequest request) {
        WorkflowExecutionDescription last =
                client.newUntypedWorkflowStub(request.purchaseId()).describe();
        return last.getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
                && PurchaseStatus.REJECTED
                        .name()
                        .equals(last.getTypedSearchAttributes().get(PurchaseSearchAttributes.STATUS));
    }

    static WorkflowOptions options(PurchaseRequest request, WorkflowIdReusePolicy reuse) {
        return WorkflowOptions.newBuilder()
                .setWorkflowId(request.purchaseId())
                .setTaskQueue(TaskQueues.PURCHASE)
                .setWorkflowIdReusePolicy(reuse)
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
