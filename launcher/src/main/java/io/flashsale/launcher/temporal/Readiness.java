package io.flashsale.launcher.temporal;

import io.flashsale.launcher.Await;
import io.flashsale.workflows.PurchaseSearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.common.SearchAttributeKey;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import java.time.Duration;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The purchase search attributes of a Temporal namespace: registered (where the server does not
 * take them at start) and awaited until the namespace lists them.
 */
public final class Readiness {

    private Readiness() {}

    /**
     * Polls {@code address} until {@code namespace} lists every purchase search attribute (Temporal's
     * Java test server, which cannot list them, once it answers at all); fails when {@code alive}
     * turns false (the server process died) or after {@code timeout}.
     */
    public static void await(String address, String namespace, Duration timeout, BooleanSupplier alive)
            throws InterruptedException {
        OperatorServiceStubs stubs = stubs(address);
        try {
            Await.until("the Temporal server on " + address, timeout, alive, () -> ready(stubs, namespace));
        } finally {
            stubs.shutdownNow();
        }
    }

    /** Registers the purchase search attributes in {@code namespace}; one that exists is fine. */
    public static void register(String address, String namespace) {
        OperatorServiceStubs stubs = stubs(address);
        try {
            for (SearchAttributeKey<?> key : PurchaseSearchAttributes.all()) {
                try {
                    stubs.blockingStub()
                            .addSearchAttributes(AddSearchAttributesRequest.newBuilder()
                                    .setNamespace(namespace)
                                    .putSearchAttributes(key.getName(), key.getValueType())
                                    .build());
                } catch (StatusRuntimeException e) {
                    String description = String.valueOf(e.getStatus().getDescription());
                    if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS
                            && !description.contains("already exists")) {
                        throw e;
                    }
                }
            }
        } finally {
            stubs.shutdownNow();
        }
    }

    private static OperatorServiceStubs stubs(String address) {
        return OperatorServiceStubs.newServiceStubs(OperatorServiceStubsOptions.newBuilder()
                .setTarget(address)
                .setRpcTimeout(Duration.ofSeconds(5))
                .validateAndBuildWithDefaults());
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
