package io.flashsale.workflows.purchase;

import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptorBase;
import java.util.Map;

/**
 * Answers {@code Workflow.getVersion} of the given change ids with fixed versions and records no
 * marker, as a purchase that passed that point before the marker existed replays it: a new run then
 * takes the old branch, so the test can drive it like any other.
 */
final class PinnedVersion extends WorkerInterceptorBase {

    private final Map<String, Integer> versions;

    PinnedVersion(Map<String, Integer> versions) {
        this.versions = Map.copyOf(versions);
    }

    @Override
    public WorkflowInboundCallsInterceptor interceptWorkflow(WorkflowInboundCallsInterceptor next) {
        return new WorkflowInboundCallsInterceptorBase(next) {
            @Override
            public void init(WorkflowOutboundCallsInterceptor outbound) {
                super.init(new Pinned(outbound));
            }
        };
    }

    private final class Pinned extends WorkflowOutboundCallsInterceptorBase {

        Pinned(WorkflowOutboundCallsInterceptor next) {
            super(next);
        }

        @Override
        public int getVersion(String id, int minSupported, int maxSupported) {
            Integer pinned = versions.get(id);
            return pinned != null ? pinned : super.getVersion(id, minSupported, maxSupported);
        }
    }
}
