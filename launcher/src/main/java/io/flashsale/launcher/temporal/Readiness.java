package io.flashsale.launcher.temporal;

import io.flashsale.launcher.Await;
import io.flashsale.workflows.PurchaseSearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.common.SearchAttributeKey;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Waits until a Temporal server answers for a namespace that has the purchase search attributes
 * (Temporal's Java test server, which cannot list them, once it answers at all).
 */
public final class Readiness {

    private Readiness() {}

    /**
     * Polls {@code address} until {@code namespace} lists every purchase search attribute; fails
     * when {@code alive} turns false (the server process died) or after {@code timeout}.
     */
    public static void await(String address, String namespace, Duration timeout, BooleanSupplier alive)
            throws InterruptedException {
        OperatorServiceStubs stubs = OperatorServiceStubs.newServiceStubs(OperatorServiceStubsOptions.newBuilder()
                .setTarget(address)
                .setRpcTimeout(Duration.ofSeconds(2))
                .validateAndBuildWithDefaults());
        try {
            Await.until("the Temporal server on " + address, timeout, alive, () -> ready(stubs, namespace));
        } finally {
            stubs.shutdownNow();
        }
    }

    private static boolean ready(OperatorServiceStubs stubs, String namespace) {
        try {
            Set<String> registered = stubs.blockingStub()
                    .listSearchAttributes(ListSearchAttributesRequest.newBuilder()
                            .setNamespace(namespace)
                            .build())
                    .getCustomAttributesMap()
                    .keySet();
            return PurchaseSearchAttributes.all().stream()
                    .map(SearchAttributeKey::getName)
                    .allMatch(registered::contains);
        } catch (StatusRuntimeException e) {
            // Temporal's Java test server lists no search attributes; it registers them on start
            return e.getStatus().getCode() == Status.Code.UNIMPLEMENTED;
        }
    }
}
