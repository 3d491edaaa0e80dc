package io.flashsale.stores.admission;

import io.flashsale.stores.testing.TestRedisCluster;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link AdmissionGateIT} on a Redis Cluster of 3 masters with a replica each. */
class AdmissionGateOnClusterIT extends AdmissionGateIT {

    @DynamicPropertySource
    static void onCluster(DynamicPropertyRegistry registry) {
        TestRedisCluster.register(registry);
    }
}
