package io.flashsale.stores.sale;

import io.flashsale.stores.testing.TestRedisCluster;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link SaleArchiveIT} on a Redis Cluster of 3 masters with a replica each. */
class SaleArchiveOnClusterIT extends SaleArchiveIT {

    @DynamicPropertySource
    static void onCluster(DynamicPropertyRegistry registry) {
        TestRedisCluster.register(registry);
    }
}
