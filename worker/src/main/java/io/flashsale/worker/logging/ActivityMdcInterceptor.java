package io.flashsale.worker.logging;

import io.flashsale.worker.temporal.ActivityInboundWithInfo;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import org.slf4j.MDC;

/**
 * Puts the purchase into the SLF4J MDC while an activity runs, so every log line an activity (or
 * the store code it calls) writes carries it: {@code workflowId} and {@code purchaseId} (the same
 * value: a purchase's workflow id is its purchase id). The SDK's own MDC keys ({@code WorkflowId},
 * {@code ActivityType}, {@code Attempt}, ...) stay as they are. The Temporal Spring Boot starter adds
 * every {@code WorkerInterceptor} bean to its worker factory ({@link LoggingConfiguration}).
 */
public class ActivityMdcInterceptor extends WorkerInterceptorBase {

    public static final String WORKFLOW_ID = "workflowId";
    public static final String PURCHASE_ID = "purchaseId";

    @Override
    public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
        return new MdcActivityInbound(next);
    }

    private static final class MdcActivityInbound extends ActivityInboundWithInfo {

        MdcActivityInbound(ActivityInboundCallsInterceptor next) {
            super(next);
        }

        @Override
        public ActivityOutput execute(ActivityInput input) {
            String id = info().getWorkflowId();
            try (MDC.MDCCloseable workflowId = MDC.putCloseable(WORKFLOW_ID, id);
                    MDC.MDCCloseable purchaseId = MDC.putCloseable(PURCHASE_ID, id)) {
                return super.execute(input);
            }
        }
    }
}
