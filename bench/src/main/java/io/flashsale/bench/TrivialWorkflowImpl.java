package io.flashsale.bench;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** The same activity options as the purchase workflow, nothing else. */
public class TrivialWorkflowImpl implements TrivialWorkflow {

    private final Steps steps = Workflow.newActivityStub(
            Steps.class,
            ActivityOptions.newBuilder()
                    .setStartToCloseTimeout(Duration.ofSeconds(10))
                    .setRetryOptions(RetryOptions.newBuilder()
                            .setInitialInterval(Duration.ofMillis(200))
                            .setBackoffCoefficient(2)
                            .setMaximumInterval(Duration.ofSeconds(10))
                            .build())
                    .build());

    @Override
    public String run(String id) {
        steps.step(id, 1);
        steps.step(id, 2);
        return steps.step(id, 3);
    }

    /** The activities: they do nothing. */
    static final class NoOpSteps implements Steps {
        @Override
        public String step(String id, int n) {
            return id;
        }
    }
}
