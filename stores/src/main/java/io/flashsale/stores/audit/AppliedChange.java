package io.flashsale.stores.audit;

/**
 * A unit change (restock or withdrawal) as one store applied it, under its Idempotency-Key.
 *
 * @param units how much the sale's total changed: + added, - taken
 * @param overdue applied longer ago than {@link MySqlFacts#OVERDUE_GRACE_SECONDS}: the other store
 *     should have it by now
 */
record AppliedChange(int units, boolean overdue) {}
