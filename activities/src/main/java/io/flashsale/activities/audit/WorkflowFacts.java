package io.flashsale.activities.audit;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;

/**
 * Whether a purchase's workflow exists and runs, by DescribeWorkflowExecution (workflow id =
 * purchase id). No visibility queries: the dev test server does not answer list or count.
 */
class WorkflowFacts {

    private final WorkflowClient client;

    WorkflowFacts(WorkflowClient client) {
        this.client = client;
    }

    WorkflowState state(String purchaseId) {
        try {
            WorkflowExecutionStatus status = client.getWorkflowServiceStubs()
                    .blockingStub()
                    .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
                            .setNamespace(client.getOptions().getNamespace())
                            .setExecution(WorkflowExecution.newBuilder().setWorkflowId(purchaseId))
                            .build())
                    .getWorkflowExecutionInfo()
                    .getStatus();
            return status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
                    ? WorkflowState.RUNNING
                    : WorkflowState.CLOSED;
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
                return WorkflowState.NOT_FOUND;
            }
            throw e;
        }
    }
}
