package io.flashsale.api.security;

import io.flashsale.stores.testing.TestRedisCluster;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link RateLimitIT} on a Redis Cluster of 3 masters with a replica each: the token buckets of the
 * purchase endpoint, and a repair's reload of a sale Redis lost.
 */
class RateLimitOnClusterIT extends RateLimitIT {

    @DynamicPropertySource
    static void onCluster(DynamicPropertyRegistry registry) {
        TestRedisCluster.register(registry);
    }
}
