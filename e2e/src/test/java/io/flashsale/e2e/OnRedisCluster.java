package io.flashsale.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link RunningSystemTest} whose system runs on a Redis Cluster of its own (module {@code
 * launcher}: 3 masters with a replica each, local processes), started before the system and stopped
 * after it; the api and the workers get {@code REDIS_CLUSTER_NODES}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface OnRedisCluster {}
