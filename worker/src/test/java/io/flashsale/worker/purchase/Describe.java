package io.flashsale.worker.purchase;

import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.common.SearchAttributeKey;
import io.temporal.common.converter.DefaultDataConverter;

/** Reads what the Temporal Web UI shows of a workflow, through the same API it uses. */
final class Describe {

    private Describe() {}

    static DescribeWorkflowExecutionResponse workflow(WorkflowClient client, String workflowId) {
        return client.getWorkflowServiceStubs()
                .blockingStub()
                .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
                        .setNamespace(client.getOptions().getNamespace())
                        .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                        .build());
    }

    static String searchAttribute(WorkflowClient client, String workflowId, SearchAttributeKey<String> key) {
        var payload = workflow(client, workflowId)
                .getWorkflowExecutionInfo()
                .getSearchAttributes()
                .getIndexedFieldsOrThrow(key.getName());
        return DefaultDataConverter.STANDARD_INSTANCE.fromPayload(payload, String.class, String.class);
    }
}
