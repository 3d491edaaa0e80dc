package io.flashsale.launcher.redis;

/** The Redis a stack runs on, as {@code up --redis} and {@code chaos --redis} take it. */
public enum RedisMode {
    /** One Redis server with its append-only file. */
    single,
    /** A master, a replica and three Sentinels; a 202 waits until the replica has the admission. */
    sentinel
}
