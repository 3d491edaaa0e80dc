package io.flashsale.chaos;

import java.util.List;

/**
 * A rule of the {@link Checker} that a chaos run broke.
 *
 * @param rule the rule broken
 * @param detail what was found, naming the sale, the user or the purchase
 * @param ops the operations behind it, in the order they were sent, so a report can print them
 */
public record Violation(Checker.Rule rule, String detail, List<Op> ops) {

    public Violation {
        ops = List.copyOf(ops);
    }
}
