package io.flashsale.api.warmup;

import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Rehearses the api's workflow start before readiness, in a namespace that does not exist: each
 * start goes through the api's Temporal client, protobuf and gRPC channel as a buyer's does and is
 * refused by the server (NOT_FOUND), so it writes nothing. Only where the server says that namespace
 * does not exist: a server that cannot say (Temporal's Java test server, which ignores namespaces)
 * gets no rehearsal. Without interceptors, so no rehearsal leaves a trace.
 */
final class StartRehearsal {

    private final WorkflowServiceStubs stubs;
    private final WorkflowClient client;
    private final String namespace = "flashsale-warmup-" + UUID.randomUUID();

    StartRehearsal(WorkflowClient api) {
        this.stubs = api.getWorkflowServiceStubs();
        this.client = WorkflowClient.newInstance(
                stubs,
                WorkflowClientOptions.newBuilder(api.getOptions())
                        .setNamespace(namespace)
                        .setInterceptors()
                        .build());
    }

    /** True when the server answers that the rehearsal's namespace does not exist. */
    boolean everyStartIsRefused() {
        try {
            stubs.blockingStub()
                    .describeNamespace(DescribeNamespaceRequest.newBuilder()
                            .setNamespace(namespace)
                            .build());
            return false;
        } catch (StatusRuntimeException e) {
            return e.getStatus().getCode() == Status.Code.NOT_FOUND;
        }
    }

    /** {@code starts} starts, {@code threads} at once; returns how many the server refused. */
    int rehearse(int starts, int threads) throws InterruptedException {
        PurchaseStarter starter = new PurchaseStarter(client);
        AtomicInteger refused = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        for (int i = 0; i < starts; i++) {
            PurchaseRequest request =
                    new PurchaseRequest("purchase-warmup-" + i, "warmup", "warmup" + i, 60, System.currentTimeMillis());
            pool.execute(() -> {
                try {
                    starter.start(request);
                } catch (RuntimeException refusal) {
                    refused.incrementAndGet();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
        return refused.get();
    }
}
