package io.flashsale.launcher.temporal;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.common.SearchAttributeKey;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import java.util.List;

/** Registers custom search attributes through the OperatorService; an existing one is fine. */
public final class SearchAttributeRegistration {

    private SearchAttributeRegistration() {}

    public static void register(String target, String namespace, List<? extends SearchAttributeKey<?>> keys) {
        OperatorServiceStubs stubs = OperatorServiceStubs.newServiceStubs(
                OperatorServiceStubsOptions.newBuilder().setTarget(target).validateAndBuildWithDefaults());
        try {
            keys.forEach(key -> add(stubs, namespace, key));
        } finally {
            stubs.shutdown();
        }
    }

    private static void add(OperatorServiceStubs stubs, String namespace, SearchAttributeKey<?> key) {
        AddSearchAttributesRequest request = AddSearchAttributesRequest.newBuilder()
                .setNamespace(namespace)
                .putSearchAttributes(key.getName(), key.getValueType())
                .build();
        try {
            stubs.blockingStub().addSearchAttributes(request);
        } catch (StatusRuntimeException e) {
            if (!alreadyExists(e)) {
                throw e;
            }
        }
    }

    private static boolean alreadyExists(StatusRuntimeException e) {
        String description = e.getStatus().getDescription();
        return e.getStatus().getCode() == Status.Code.ALREADY_EXISTS
                || (description != null && description.contains("already exists"));
    }
}
