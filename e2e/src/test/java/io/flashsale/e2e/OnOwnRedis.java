package io.flashsale.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link RunningSystemTest} whose system runs on a plain Redis of its own (module {@code
 * launcher}: one {@code redis-server} with its append-only file, {@code appendfsync everysec} as
 * the project runs it), started before the system and stopped after it, so the test may kill it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface OnOwnRedis {}
