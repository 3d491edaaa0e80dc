package io.flashsale.stores.audit;

/**
 * One broken invariant of {@code docs/architecture.md}.
 *
 * @param invariant I1 to I5
 * @param detail what was found, with counts and (some) purchase ids
 */
public record Violation(String invariant, String detail) {}
