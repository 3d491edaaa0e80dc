package io.flashsale.api.purchase;

import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.HoldState;
import io.flashsale.workflows.purchase.PurchaseView;
import io.flashsale.workflows.purchase.PurchaseWorkflow;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowQueryRejectedException;
import io.temporal.client.WorkflowServiceException;
import io.temporal.client.WorkflowStub;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Reads a purchase: from its workflow (the {@code status} query), or, while the workflow is not
 * visible yet (admitted, start still on its way through the relay) or Temporal is unreachable,
 * from the Redis hold.
 */
@Component
class PurchaseLookup {

    private final WorkflowClient temporal;
    private final AdmissionGate gate;

    PurchaseLookup(WorkflowClient temporal, AdmissionGate gate) {
        this.temporal = temporal;
        this.gate = gate;
    }

    Optional<PurchaseResponse> find(PurchaseId id) {
        try {
            return fromWorkflow(id).map(PurchaseResponse::of).or(() -> fromHold(id));
        } catch (WorkflowServiceException down) {
            return whileTemporalIsDown(id, down);
        }
    }

    WorkflowStub untyped(PurchaseId id) {
        return temporal.newUntypedWorkflowStub(id.value());
    }

    PurchaseWorkflow workflow(PurchaseId id) {
        return temporal.newWorkflowStub(PurchaseWorkflow.class, id.value());
    }

    /**
     * A running purchase answers the {@code status} query; an ended one is answered from its result
     * in the history (the client refuses queries of closed workflows, {@code
     * TemporalClientConfiguration}), so no worker is needed: its build may be retired already.
     */
    private Optional<PurchaseView> fromWorkflow(PurchaseId id) {
        try {
            return Optional.ofNullable(workflow(id).status());
        } catch (WorkflowQueryRejectedException ended) {
            return Optional.of(untyped(id).getResult(PurchaseView.class));
        } catch (WorkflowNotFoundException notStartedYet) {
            return Optional.empty();
        }
    }

    /**
     * Temporal unreachable: a purchase still held in Redis is RESERVED as far as anyone can tell.
     * Any other failure (a query timing out while a worker takes over, say) stays a failure (503)
     * rather than a guess.
     */
    private Optional<PurchaseResponse> whileTemporalIsDown(PurchaseId id, WorkflowServiceException failure) {
        if (!isUnreachable(failure)) {
            throw failure;
        }
        return Optional.of(fromHold(id).orElseThrow(() -> failure));
    }

    private static boolean isUnreachable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof StatusRuntimeException grpc) {
                return grpc.getStatus().getCode() == Status.Code.UNAVAILABLE;
            }
        }
        return false;
    }

    private Optional<PurchaseResponse> fromHold(PurchaseId id) {
        return gate.holdState(id.saleId(), id.value())
                .filter(HoldState.HELD::equals)
                .map(held -> PurchaseResponse.reserved(id));
    }
}
