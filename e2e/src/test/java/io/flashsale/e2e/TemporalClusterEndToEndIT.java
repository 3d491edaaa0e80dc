package io.flashsale.e2e;

/**
 * The end-to-end contest of {@link FlashSaleEndToEndIT} (exact counts, two workers, payments,
 * deadlines, audit PASS) on the production-like Temporal cluster: temporal-server on PostgreSQL,
 * 16 shards over two history hosts, instead of the dev server.
 */
@OnTemporalCluster
class TemporalClusterEndToEndIT extends FlashSaleEndToEndIT {}
