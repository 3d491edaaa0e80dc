package io.flashsale.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link RunningSystemTest} whose system runs on a production-like Temporal cluster of its own
 * (module {@code launcher}: temporal-server on PostgreSQL, frontend, matching, worker and two
 * history hosts as separate processes), so the test may kill any of its nodes.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface OnTemporalCluster {}
