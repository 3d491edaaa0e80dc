package io.flashsale.stores.audit;

import io.flashsale.workflows.PurchaseSearchAttributes;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;

/**
 * Whether a purchase's workflow exists and runs, by DescribeWorkflowExecution (workflow id =
 * purchase id). No visibility queries: the dev test server does not answer list or count.
 */
class WorkflowFacts {

    /**
     * @param awaitingPayment running, its PurchaseStatus is PENDING_PAYMENT, and nothing is in
     *     progress (no activity, no workflow task): it sits waiting for payment or its deadline
     */
    record Described(WorkflowState state, boolean awaitingPayment) {

        static final Described NOT_FOUND = new Described(WorkflowState.NOT_FOUND, false);
    }

    private final WorkflowClient client;

    WorkflowFacts(WorkflowClient client) {
        this.client = client;
    }

    Described describe(String purchaseId) {
        try {
            DescribeWorkflowExecutionResponse response = client.getWorkflowServiceStubs()
                    .blockingStub()
                    .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
                            .setNamespace(client.getOptions().getNamespace())
                            .setExecution(WorkflowExecution.newBuilder().setWorkflowId(purchaseId))
                            .build());
            boolean running = response.getWorkflowExecutionInfo().getStatus()
                    == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
            return running
                    ? new Described(WorkflowState.RUNNING, awaitingPayment(response))
                    : new Described(WorkflowState.CLOSED, false);
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
                return Described.NOT_FOUND;
            }
            throw e;
        }
    }

    private boolean awaitingPayment(DescribeWorkflowExecutionResponse response) {
        String status = new WorkflowExecutionDescription(
                        response, client.getOptions().getDataConverter())
                .getTypedSearchAttributes()
                .get(PurchaseSearchAttributes.STATUS);
        return PurchaseStatus.PENDING_PAYMENT.name().equals(status)
                && response.getPendingActivitiesCount() == 0
                && !response.hasPendingWorkflowTask();
    }
}
