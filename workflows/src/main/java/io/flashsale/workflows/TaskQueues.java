package io.flashsale.workflows;

/** Task-queue names shared by the worker (polls) and the clients (start workflows). */
public final class TaskQueues {

    /** Purchase workflows and all of their activities. */
    public static final String PURCHASE = "flashsale-purchase";

    /** No worker polls it: the api's warm-up rehearses workflow starts on it (PurchaseStarter#rehearse). */
    public static final String REHEARSAL = "flashsale-rehearsal";

    private TaskQueues() {}
}
