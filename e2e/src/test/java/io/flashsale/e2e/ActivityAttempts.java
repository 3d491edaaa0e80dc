package io.flashsale.e2e;

import io.temporal.api.history.v1.ActivityTaskStartedEventAttributes;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.MarkerRecordedEventAttributes;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.internal.history.LocalActivityMarkerUtils;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Which attempt an activity of a workflow is on, or took, as Temporal records it. An activity task's
 * attempts are in its events and the workflow's description; a local activity's (confirmReservation
 * and createOrder, version {@code local-steps}) are in its markers, each recorded by the workflow task
 * of the worker that ran it. The marker layout is the SDK's (read with its own helper).
 */
final class ActivityAttempts {

    /**
     * A local activity's marker: the attempt it records; whether that attempt failed (into a retry
     * timer, or for good: refused, or handed to an activity task); and the identity of the worker
     * whose workflow task recorded it.
     */
    record LocalStep(int attempt, boolean failed, String identity) {}

    private ActivityAttempts() {}

    /** The markers of the local activity {@code activityType}, in history order. */
    static List<LocalStep> localSteps(WorkflowExecutionHistory history, String activityType) {
        Map<Long, String> completedBy = new HashMap<>();
        List<LocalStep> steps = new ArrayList<>();
        for (HistoryEvent event : history.getEvents()) {
            if (event.hasWorkflowTaskCompletedEventAttributes()) {
                completedBy.put(
                        event.getEventId(),
                        event.getWorkflowTaskCompletedEventAttributes().getIdentity());
            }
            if (event.hasMarkerRecordedEventAttributes() && LocalActivityMarkerUtils.hasLocalActivityStructure(event)) {
                MarkerRecordedEventAttributes marker = event.getMarkerRecordedEventAttributes();
                if (activityType.equals(LocalActivityMarkerUtils.getActivityTypeName(marker))) {
                    steps.add(new LocalStep(
                            LocalActivityMarkerUtils.getMetadata(marker).getAttempt(),
                            marker.hasFailure(),
                            completedBy.get(marker.getWorkflowTaskCompletedEventId())));
                }
            }
        }
        return steps;
    }

    /** The marker of the attempt that ran the local activity {@code activityType} to its end. */
    static Optional<LocalStep> localEnded(WorkflowExecutionHistory history, String activityType) {
        return localSteps(history, activityType).stream()
                .filter(step -> !step.failed())
                .findFirst();
    }

    /**
     * The identities ({@code pid@host}) of the workers whose workflow task timed out: each took the
     * task, ran what it ran (local activities included) and never completed it, died say.
     */
    static List<String> timedOutWorkflowTasks(WorkflowExecutionHistory history) {
        Map<Long, String> startedBy = new HashMap<>();
        List<String> timedOut = new ArrayList<>();
        for (HistoryEvent event : history.getEvents()) {
            if (event.hasWorkflowTaskStartedEventAttributes()) {
                startedBy.put(
                        event.getEventId(),
                        event.getWorkflowTaskStartedEventAttributes().getIdentity());
            }
            if (event.hasWorkflowTaskTimedOutEventAttributes()) {
                timedOut.add(startedBy.get(
                        event.getWorkflowTaskTimedOutEventAttributes().getStartedEventId()));
            }
        }
        return timedOut;
    }

    /**
     * The identity of the worker running the workflow's workflow task now (the last one started,
     * neither completed nor timed out nor failed yet); empty when none runs.
     */
    static Optional<String> workflowTaskRunningOn(WorkflowExecutionHistory history) {
        String running = null;
        for (HistoryEvent event : history.getEvents()) {
            if (event.hasWorkflowTaskStartedEventAttributes()) {
                running = event.getWorkflowTaskStartedEventAttributes().getIdentity();
            }
            if (event.hasWorkflowTaskCompletedEventAttributes()
                    || event.hasWorkflowTaskTimedOutEventAttributes()
                    || event.hasWorkflowTaskFailedEventAttributes()) {
                running = null;
            }
        }
        return Optional.ofNullable(running);
    }

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
