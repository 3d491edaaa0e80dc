package io.flashsale.worker.logging;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** Activities run with their purchase (the workflow id) in the MDC. */
class ActivityMdcInterceptorTest {

    private static final String QUEUE = "mdc-test";

    TestWorkflowEnvironment env;
    RecordingActivity activity = new RecordingActivity();

    @BeforeEach
    void start() {
        env = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
                .setWorkerFactoryOptions(WorkerFactoryOptions.newBuilder()
                        .setWorkerInterceptors(new ActivityMdcInterceptor())
                        .build())
                .build());
        Worker worker = env.newWorker(QUEUE);
        worker.registerWorkflowImplementationTypes(TwoStepsImpl.class);
        worker.registerActivitiesImplementations(activity);
        env.start();
    }

    @AfterEach
    void close() {
        env.close();
    }

    @Test
    void everyActivityRunsWithItsWorkflowIdAsPurchaseId() {
        for (String purchaseId : List.of("purchase-s1-alice", "purchase-s1-bob")) {
            WorkflowClient client = env.getWorkflowClient();
            client.newWorkflowStub(
                            TwoSteps.class,
                            WorkflowOptions.newBuilder()
                                    .setTaskQueue(QUEUE)
                                    .setWorkflowId(purchaseId)
                                    .build())
                    .run();
        }

        assertThat(activity.seen)
                .containsExactly(
                        Map.of("workflowId", "purchase-s1-alice", "purchaseId", "purchase-s1-alice"),
                        Map.of("workflowId", "purchase-s1-alice", "purchaseId", "purchase-s1-alice"),
                        Map.of("workflowId", "purchase-s1-bob", "purchaseId", "purchase-s1-bob"),
                        Map.of("workflowId", "purchase-s1-bob", "purchaseId", "purchase-s1-bob"));
    }

    @WorkflowInterface
    public interface TwoSteps {
        @WorkflowMethod
        void run();
    }

    public static class TwoStepsImpl implements TwoSteps {
        private final Steps steps = Workflow.newActivityStub(
                Steps.class,
                ActivityOptions.newBuilder()
                        .setStartToCloseTimeout(Duration.ofSeconds(10))
                        .build());

        @Override
        public void run() {
            steps.step();
            steps.step();
        }
    }

    @ActivityInterface
    public interface Steps {
        void step();
    }

    /** Records the MDC inside each call. */
    static class RecordingActivity implements Steps {
        final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();

        @Override
        public void step() {
            seen.add(Map.of(
                    ActivityMdcInterceptor.WORKFLOW_ID, MDC.get(ActivityMdcInterceptor.WORKFLOW_ID),
                    ActivityMdcInterceptor.PURCHASE_ID, MDC.get(ActivityMdcInterceptor.PURCHASE_ID)));
        }
    }
}
