package io.flashsale.worker.temporal;

import io.flashsale.worker.WorkerProperties;
import io.temporal.spring.boot.WorkerOptionsCustomizer;
import io.temporal.worker.WorkerOptions;
import org.springframework.stereotype.Component;

/**
 * How much the worker takes on at once ({@link WorkerProperties.Capacity}: {@code
 * flashsale.worker.capacity}), for the workers the starter creates from the {@code @WorkflowImpl}
 * and {@code @ActivityImpl} it discovers.
 */
@Component
class WorkerCapacity implements WorkerOptionsCustomizer {

    private final WorkerProperties.Capacity capacity;

    WorkerCapacity(WorkerProperties properties) {
        this.capacity = properties.capacity();
    }

    @Override
    public WorkerOptions.Builder customize(WorkerOptions.Builder options, String workerName, String taskQueue) {
        return options.setMaxConcurrentWorkflowTaskExecutionSize(capacity.workflowTasks())
                .setMaxConcurrentActivityExecutionSize(capacity.activities())
                .setMaxConcurrentLocalActivityExecutionSize(capacity.localActivities())
                .setMaxConcurrentWorkflowTaskPollers(capacity.workflowPollers())
                .setMaxConcurrentActivityTaskPollers(capacity.activityPollers());
    }
}
