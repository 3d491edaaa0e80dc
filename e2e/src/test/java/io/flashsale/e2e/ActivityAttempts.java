package io.flashsale.e2e;

import io.temporal.api.history.v1.ActivityTaskStartedEventAttributes;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.common.WorkflowExecutionHistory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** Which attempt an activity of a workflow is on, or took, as Temporal records it. */
final class ActivityAttempts {

    private ActivityAttempts() {}

    /**
     * The attempt that ran {@code activityType} to its end, from the history (the started event of
     * an activity is written once it ended, with the attempt that ended it); 0 when none ended.
     */
    static int ended(WorkflowExecutionHistory history, String activityType) {
        return starts(history, activityType)
                .mapToInt(ActivityTaskStartedEventAttributes::getAttempt)
                .max()
                .orElse(0);
    }

    /**
     * The started event of the attempt that ran {@code activityType} to its end (its attempt and the
     * identity {@code pid@host} of the worker that ran it); empty when none ended.
     */
    static Optional<ActivityTaskStartedEventAttributes> endedStart(
            WorkflowExecutionHistory history, String activityType) {
        return starts(history, activityType).reduce((first, second) -> second);
    }

    /** The started events of {@code activityType}'s activities, in history order. */
    private static Stream<ActivityTaskStartedEventAttributes> starts(
            WorkflowExecutionHistory history, String activityType) {
        Map<Long, String> scheduled = new HashMap<>();
        List<ActivityTaskStartedEventAttributes> starts = new ArrayList<>();
        for (HistoryEvent event : history.getEvents()) {
            if (event.hasActivityTaskScheduledEventAttributes()) {
                scheduled.put(
                        event.getEventId(),
                        event.getActivityTaskScheduledEventAttributes()
                                .getActivityType()
                                .getName());
            }
            if (event.hasActivityTaskStartedEventAttributes()
                    && activityType.equals(scheduled.get(
                            event.getActivityTaskStartedEventAttributes().getScheduledEventId()))) {
                starts.add(event.getActivityTaskStartedEventAttributes());
            }
        }
        return starts.stream();
    }

    /** The running {@code activityType} of the workflow as Temporal describes it; empty when none runs. */
    static Optional<PendingActivityInfo> running(DescribeWorkflowExecutionResponse workflow, String activityType) {
        return workflow.getPendingActivitiesList().stream()
                .filter(activity -> activity.getActivityType().getName().equals(activityType))
                .findFirst();
    }

    /** The pid of a worker identity {@code pid@host}. */
    static long pid(String identity) {
        return Long.parseLong(identity.substring(0, identity.indexOf('@')));
    }

    /** The attempt the running {@code activityType} is on (2 once the first failed); 0 when none runs. */
    static int pending(DescribeWorkflowExecutionResponse workflow, String activityType) {
        return workflow.getPendingActivitiesList().stream()
                .filter(activity -> activity.getActivityType().getName().equals(activityType))
                .mapToInt(PendingActivityInfo::getAttempt)
                .max()
                .orElse(0);
    }
}
