package io.flashsale.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link RunningSystemTest} whose system runs on Redis as production runs a single master (module
 * {@code launcher}, {@code RedisSentinels}): a master, a replica reading it {@value #LATENCY_MILLIS}
 * ms late and three sentinels, started before the system and stopped after it; the apps reach the
 * master through the sentinels ({@code REDIS_SENTINEL_MASTER}, {@code REDIS_SENTINEL_NODES}) and
 * answer an admission once the replica has it ({@code FLASHSALE_REDIS_REPLICATION_REPLICAS=1}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface OnRedisSentinel {

    /** How late the replica reads the master's stream. */
    int LATENCY_MILLIS = 200;
}
