package io.flashsale.workflows.purchase;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The activity calls of one purchase in the order they ran, each as its name and, where it tells
 * something, its argument ({@code "markPaid pay-1"}, {@code "cancelOrder EXPIRED"}): a test states
 * the exact list, so both the count and the order of the steps are checked.
 */
final class Steps {

    private final List<String> calls = new CopyOnWriteArrayList<>();

    void record(String call) {
        calls.add(call);
    }

    List<String> calls() {
        return List.copyOf(calls);
    }
}
