package io.flashsale.worker.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.flashsale.testkit.FreePorts;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testserver.TestServer;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;

/**
 * A worker started while Temporal is down waits for it instead of exiting: its start fails, it
 * reports DOWN, and once a Temporal server listens on the address the workers start and it
 * reports UP.
 */
class WorkersStartTest {

    @Test
    void startsTheWorkersOnceTemporalAnswersAndIsDownUntilThen() throws Exception {
        int port = FreePorts.next();
        WorkflowServiceStubs stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget("127.0.0.1:" + port)
                .build());
        WorkerFactory workers = WorkerFactory.newInstance(WorkflowClient.newInstance(stubs));
        workers.newWorker("workers-start-test");
        WorkersStart start = new WorkersStart(workers);
        try {
            start.onApplicationEvent(null);

            assertThat(workers.isStarted())
                    .as("nothing listens on the address yet")
                    .isFalse();
            assertThat(start.health().getStatus()).isEqualTo(Status.DOWN);

            try (var temporal = TestServer.createPortBoundServer(port, false)) {
                await().atMost(Duration.ofSeconds(30)).until(workers::isStarted);
                assertThat(start.health().getStatus()).isEqualTo(Status.UP);
            }
        } finally {
            start.destroy();
            workers.shutdownNow();
            stubs.shutdownNow();
        }
    }
}
