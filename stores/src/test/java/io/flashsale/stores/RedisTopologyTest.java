package io.flashsale.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

class RedisTopologyTest {

    private final MockEnvironment environment = new MockEnvironment();

    @Test
    void switchesToTheClusterNodesTheVariableNames() {
        environment.setProperty("REDIS_CLUSTER_NODES", " 10.0.0.1:7000,10.0.0.2:7000 ");

        postProcess();

        assertThat(environment.getProperty("spring.data.redis.cluster.nodes")).isEqualTo("10.0.0.1:7000,10.0.0.2:7000");
    }

    @Test
    void staysOnTheSingleServerWhenTheVariableIsUnsetOrBlank() {
        postProcess();
        environment.setProperty("REDIS_CLUSTER_NODES", " ");
        postProcess();

        assertThat(environment.containsProperty("spring.data.redis.cluster.nodes"))
                .isFalse();
    }

    @Test
    void leavesClusterNodesConfiguredOtherwiseAlone() {
        environment.setProperty("REDIS_CLUSTER_NODES", "10.0.0.1:7000");
        environment.setProperty("spring.data.redis.cluster.nodes", "10.0.0.9:7000");

        postProcess();

        assertThat(environment.getProperty("spring.data.redis.cluster.nodes")).isEqualTo("10.0.0.9:7000");
    }

    @Test
    void switchesToTheMasterSentinelNamesWithItsSentinels() {
        environment.setProperty("REDIS_SENTINEL_MASTER", "flashsale");
        environment.setProperty("REDIS_SENTINEL_NODES", "10.0.0.1:26379,10.0.0.2:26379");

        postProcess();

        assertThat(environment.getProperty("spring.data.redis.sentinel.master")).isEqualTo("flashsale");
        assertThat(environment.getProperty("spring.data.redis.sentinel.nodes"))
                .isEqualTo("10.0.0.1:26379,10.0.0.2:26379");
    }

    @Test
    void refusesAMasterWithoutSentinelsAndSentinelsBesideACluster() {
        environment.setProperty("REDIS_SENTINEL_MASTER", "flashsale");
        assertThatThrownBy(this::postProcess).hasMessageContaining("REDIS_SENTINEL_NODES");

        environment.setProperty("REDIS_SENTINEL_NODES", "10.0.0.1:26379");
        environment.setProperty("REDIS_CLUSTER_NODES", "10.0.0.1:7000");
        assertThatThrownBy(this::postProcess).hasMessageContaining("not both");
    }

    @Test
    void takesNoSentinelNodesWithoutAMaster() {
        environment.setProperty("REDIS_SENTINEL_NODES", "10.0.0.1:26379");

        postProcess();

        assertThat(environment.containsProperty("spring.data.redis.sentinel.nodes"))
                .isFalse();
    }

    private void postProcess() {
        new RedisTopology().postProcessEnvironment(environment, new SpringApplication());
    }
}
