package io.flashsale.worker.temporal;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;

/** Base of the worker's activity interceptors: keeps the running activity's {@link ActivityInfo}. */
public abstract class ActivityInboundWithInfo extends ActivityInboundCallsInterceptorBase {

    private ActivityInfo info;

    protected ActivityInboundWithInfo(ActivityInboundCallsInterceptor next) {
        super(next);
    }

    @Override
    public void init(ActivityExecutionContext context) {
        info = context.getInfo();
        super.init(context);
    }

    /** The activity this interceptor runs around (set before {@code execute}). */
    protected ActivityInfo info() {
        return info;
    }
}
