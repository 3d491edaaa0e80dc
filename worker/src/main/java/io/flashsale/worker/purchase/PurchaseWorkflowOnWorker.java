package io.flashsale.worker.purchase;

import io.flashsale.workflows.TaskQueues;
import io.flashsale.workflows.purchase.PurchaseWorkflowImpl;
import io.temporal.spring.boot.WorkflowImpl;

/**
 * The purchase workflow as this worker registers it: the Temporal starter's auto-discovery finds it
 * here ({@code spring.temporal.workers-auto-discovery.packages}) and runs it on {@link
 * TaskQueues#PURCHASE}. It adds no code.
 *
 * <p>The annotation is not on {@link PurchaseWorkflowImpl} itself: {@code @WorkflowImpl} ships in
 * temporal-spring-boot-autoconfigure, which would put Spring Boot on the classpath of the {@code
 * workflows} module, and that module depends on the Temporal SDK alone. The workflow type is named
 * after the interface ({@code PurchaseWorkflow}), so histories, the replay test and purchases in
 * flight see the same workflow either way.
 */
@WorkflowImpl(taskQueues = TaskQueues.PURCHASE)
public class PurchaseWorkflowOnWorker extends PurchaseWorkflowImpl {}
