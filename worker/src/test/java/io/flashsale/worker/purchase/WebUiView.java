package io.flashsale.worker.purchase;

import io.temporal.api.common.v1.Payload;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.sdk.v1.WorkflowMetadata;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.client.WorkflowClient;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.internal.history.LocalActivityMarkerUtils;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What the Temporal Web UI shows of a purchase, read through the same APIs: describe (summary,
 * details, search attributes), the {@code __temporal_workflow_metadata} query (current details)
 * and the history (activity and timer summaries; a local activity's is on its marker).
 */
record WebUiView(
        String staticSummary,
        String staticDetails,
        Map<String, String> searchAttributes,
        String currentDetails,
        List<String> activitySummaries,
        List<String> timerSummaries) {

    static WebUiView of(WorkflowClient client, String workflowId) {
        DescribeWorkflowExecutionResponse described = Describe.workflow(client, workflowId);
        var metadata = described.getExecutionConfig().getUserMetadata();
        List<HistoryEvent> history =
                client.fetchHistory(workflowId).getHistory().getEventsList();
        WorkflowMetadata current =
                client.newUntypedWorkflowStub(workflowId).query("__temporal_workflow_metadata", WorkflowMetadata.class);
        return new WebUiView(
                text(metadata.getSummary()),
                text(metadata.getDetails()),
                searchAttributes(described),
                current.getCurrentDetails(),
                summaries(history, WebUiView::isActivity),
                summaries(history, event -> event.getEventType() == EventType.EVENT_TYPE_TIMER_STARTED));
    }

    private static Map<String, String> searchAttributes(DescribeWorkflowExecutionResponse described) {
        Map<String, String> values = new TreeMap<>();
        described
                .getWorkflowExecutionInfo()
                .getSearchAttributes()
                .getIndexedFieldsMap()
                .forEach((name, payload) -> values.put(name, text(payload)));
        return values;
    }

    private static boolean isActivity(HistoryEvent event) {
        return event.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
                || LocalActivityMarkerUtils.hasLocalActivityStructure(event);
    }

    private static List<String> summaries(List<HistoryEvent> history, Predicate<HistoryEvent> kind) {
        return history.stream()
                .filter(kind)
                .map(event -> text(event.getUserMetadata().getSummary()))
                .toList();
    }

    private static String text(Payload payload) {
        return DefaultDataConverter.STANDARD_INSTANCE.fromPayload(payload, String.class, String.class);
    }
}
