package io.flashsale.worker.admission;

import io.flashsale.stores.testing.TestRedisCluster;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link AdmissionRelayIT} on a Redis Cluster of 3 masters with a replica each: the relay's consumer
 * group, claims of a dead consumer (XAUTOCLAIM), consumer cleanup and backlog, with the real
 * reservation activities' scripts.
 */
class AdmissionRelayOnClusterIT extends AdmissionRelayIT {

    @DynamicPropertySource
    static void onCluster(DynamicPropertyRegistry registry) {
        TestRedisCluster.register(registry);
    }
}
