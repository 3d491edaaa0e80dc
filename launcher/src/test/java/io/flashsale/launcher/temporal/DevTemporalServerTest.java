package io.flashsale.launcher.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flashsale.testkit.FreePorts;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.SearchAttributes;
import io.temporal.api.common.v1.WorkflowType;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.StartWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.StartWorkflowExecutionResponse;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DevTemporalServerTest {

    private static Closeable server;
    private static WorkflowServiceStubs service;
    private static String target;

    @BeforeAll
    static void startServer() throws IOException {
        int port = FreePorts.next();
        server = DevServer.startTestServer(port, "default");
        target = "127.0.0.1:" + port;
        service = WorkflowServiceStubs.newServiceStubs(
                WorkflowServiceStubsOptions.newBuilder().setTarget(target).validateAndBuildWithDefaults());
    }

    @AfterAll
    static void stopServer() throws IOException {
        service.shutdown();
        server.close();
    }

    @Test
    void acceptsWorkflowsCarryingThePurchaseSearchAttributes() {
        for (String name : new String[] {"SaleId", "UserId", "PurchaseStatus"}) {
            assertThat(startWith(name).getRunId()).isNotBlank();
        }
    }

    @Test
    void isReadyOnceItAnswersAlthoughItCannotListSearchAttributes() throws InterruptedException {
        DevServer.awaitReady(target, "default", Duration.ofSeconds(10), () -> true);
    }

    @Test
    void refusesAnUnregisteredSearchAttribute() {
        assertThatThrownBy(() -> startWith("NotRegistered"))
                .isInstanceOf(StatusRuntimeException.class)
                .hasMessageContaining("not defined");
    }

    private static StartWorkflowExecutionResponse startWith(String attribute) {
        SearchAttributes attributes = SearchAttributes.newBuilder()
                .putIndexedFields(
                        attribute,
                        DefaultDataConverter.STANDARD_INSTANCE.toPayload("s1").orElseThrow())
                .build();
        return service.blockingStub()
                .startWorkflowExecution(StartWorkflowExecutionRequest.newBuilder()
                        .setNamespace("default")
                        .setWorkflowId("probe-" + UUID.randomUUID())
                        .setRequestId(UUID.randomUUID().toString())
                        .setWorkflowType(WorkflowType.newBuilder().setName("Probe"))
                        .setTaskQueue(TaskQueue.newBuilder().setName("probe"))
                        .setSearchAttributes(attributes)
                        .build());
    }
}
