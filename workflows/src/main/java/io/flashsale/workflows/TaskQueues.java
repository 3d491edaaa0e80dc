package io.flashsale.workflows;

/** Task-queue names shared by the worker (polls) and the clients (start workflows). */
public final class TaskQueues {

    /** Purchase workflows and all of their activities. */
    public static final String PURCHASE = "flashsale-purchase";

    private TaskQueues() {}
}
