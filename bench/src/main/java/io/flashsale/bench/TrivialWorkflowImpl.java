package io.flashsale.bench;

import io.flashsale.workflows.purchase.PurchaseWorkflowImpl;
import io.temporal.workflow.Workflow;

/** The same activity options as the purchase workflow, nothing else. */
public class TrivialWorkflowImpl implements TrivialWorkflow {

    private final Steps steps = Workflow.newActivityStub(Steps.class, PurchaseWorkflowImpl.ACTIVITY_OPTIONS);

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
