package io.flashsale.bench;

import io.temporal.activity.ActivityInterface;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** P3's ceiling: three no-op activities in a row, the least a 3-step workflow can cost on Temporal. */
@WorkflowInterface
public interface TrivialWorkflow {

    String TASK_QUEUE = "flashsale-bench-trivial";

    @WorkflowMethod
    String run(String id);

    @ActivityInterface
    interface Steps {
        String step(String id, int n);
    }
}
