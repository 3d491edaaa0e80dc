package io.flashsale.stores.admission;

import io.flashsale.stores.testing.TestRedisCluster;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link SoldOutMarksIT} on a Redis Cluster of 3 masters with a replica each: the scripts publish on
 * the master of the sale's slot, and the listener, connected to the cluster, hears it.
 */
class SoldOutMarksOnClusterIT extends SoldOutMarksIT {

    @DynamicPropertySource
    static void onCluster(DynamicPropertyRegistry registry) {
        TestRedisCluster.register(registry);
    }
}
