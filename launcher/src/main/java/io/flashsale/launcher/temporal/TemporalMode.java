package io.flashsale.launcher.temporal;

/** The Temporal a stack runs on, as {@code up --temporal} and {@code chaos --temporal} take it. */
public enum TemporalMode {
    /** The Temporal dev server on a SQLite file. */
    dev,
    /** The production-like cluster: temporal-server on PostgreSQL, each service a process of its own. */
    cluster
}
