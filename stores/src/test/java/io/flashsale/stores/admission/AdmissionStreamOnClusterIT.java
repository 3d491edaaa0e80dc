package io.flashsale.stores.admission;

import io.flashsale.stores.testing.TestRedisCluster;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@link AdmissionStreamIT} on a Redis Cluster of 3 masters with a replica each: consumer group
 * reads, XAUTOCLAIM (claim.lua), acknowledge-and-delete (ack_delete.lua), backlog, a lost stream.
 * ack_delete.lua cut short runs on one server only ({@link AdmissionStreamDoneCutShortIT}).
 */
class AdmissionStreamOnClusterIT extends AdmissionStreamIT {

    @DynamicPropertySource
    static void onCluster(DynamicPropertyRegistry registry) {
        TestRedisCluster.register(registry);
    }
}
