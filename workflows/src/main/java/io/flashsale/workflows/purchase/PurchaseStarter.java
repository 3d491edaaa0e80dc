package io.flashsale.workflows.purchase;

import io.flashsale.workflows.PurchaseSearchAttributes;
import io.flashsale.workflows.TaskQueues;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;

/**
 * Starts a purchase workflow, idempotently: the workflow id is the purchase id and a closed
 * workflow is never reused, so the api, a retried request and the admission relay can all call it.
 */
public final class PurchaseStarter {

    private final WorkflowClient client;

    public PurchaseStarter(WorkflowClient client) {
        this.client = client;
    }

    /** @return true when this call started the workflow, false when it existed already */
    public boolean start(PurchaseRequest request) {
        PurchaseWorkflow workflow = client.newWorkflowStub(PurchaseWorkflow.class, options(request));
        try {
            WorkflowClient.start(workflow::purchase, request);
            return true;
        } catch (WorkflowExecutionAlreadyStarted alreadyStarted) {
            return false;
        }
    }

    static WorkflowOptions options(PurchaseRequest request) {
        return WorkflowOptions.newBuilder()
                .setWorkflowId(request.purchaseId())
                .setTaskQueue(TaskQueues.PURCHASE)
                .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
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
