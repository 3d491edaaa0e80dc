package io.flashsale.workflows.purchase;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * One admitted purchase, from the Redis hold to PAID, EXPIRED, CANCELLED or REJECTED. The workflow
 * id is the purchase id, so Temporal refuses a second workflow for the same user and sale.
 */
@WorkflowInterface
public interface PurchaseWorkflow {

    @WorkflowMethod
    PurchaseView purchase(PurchaseRequest request);

    @QueryMethod
    PurchaseView status();

    /** The buyer paid. Accepted only while the order awaits payment (or as a repeat of the same payment). */
    @UpdateMethod
    PurchaseView pay(PaymentRequest payment);

    @UpdateValidatorMethod(updateName = "pay")
    void validatePay(PaymentRequest payment);

    /** The buyer gives up the purchase; answers once the unit is back on sale. */
    @UpdateMethod
    PurchaseView cancel();

    @UpdateValidatorMethod(updateName = "cancel")
    void validateCancel();
}
