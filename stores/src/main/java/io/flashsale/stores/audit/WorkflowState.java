package io.flashsale.stores.audit;

/** Whether a purchase's workflow exists in Temporal and still runs. */
public enum WorkflowState {
    RUNNING,
    /** Completed, failed, terminated or timed out: it will not touch the sale again. */
    CLOSED,
    NOT_FOUND
}
