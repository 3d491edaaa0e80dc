package io.flashsale.worker.purchase;

import io.flashsale.workflows.PurchaseSearchAttributes;
import io.flashsale.workflows.TaskQueues;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.PurchaseWorkflowImpl;
import io.flashsale.workflows.purchase.ReservationActivities;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;

/** A time-skipping Temporal with the search attributes registered and the purchase worker on it. */
public final class TemporalTestEnvironment {

    private TemporalTestEnvironment() {}

    static TestWorkflowEnvironment start(ReservationActivities reservations, OrderActivities orders) {
        return start(TestEnvironmentOptions.getDefaultInstance(), reservations, orders);
    }

    /** With {@code options}, e.g. a metrics scope or worker interceptors. */
    static TestWorkflowEnvironment start(
            TestEnvironmentOptions options, ReservationActivities reservations, OrderActivities orders) {
        TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance(options);
        registerSearchAttributes(env);
        register(env.newWorker(TaskQueues.PURCHASE), reservations, orders);
        env.start();
        return env;
    }

    /** The purchase's search attributes, registered on {@code env} as the dev server registers them. */
    public static void registerSearchAttributes(TestWorkflowEnvironment env) {
        PurchaseSearchAttributes.all()
                .forEach(
                        key -> env.registerSearchAttribute(key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD));
    }

    static void register(Worker worker, ReservationActivities reservations, OrderActivities orders) {
        worker.registerWorkflowImplementationTypes(PurchaseWorkflowImpl.class);
        worker.registerActivitiesImplementations(reservations, orders);
    }
}
