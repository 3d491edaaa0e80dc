package io.flashsale.stores;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.testing.StoresIntegrationTest;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A buyer's 202 rests on the admission entry in Redis, so the Redis the project starts (here the
 * one the tests run on, started by bin/lib/stores.sh as {@code bin/flashsale up} and CI start it)
 * keeps an append-only file, fsynced every second (docs/faults.md, "What Redis may lose").
 */
class RedisPersistenceIT extends StoresIntegrationTest {

    @Autowired
    StringRedisTemplate redis;

    @Test
    void theRedisTheProjectStartsKeepsEveryAdmissionInItsAppendOnlyFile() {
        Properties appendonly = redis.execute(c -> c.serverCommands().getConfig("appendonly"), true);
        Properties appendfsync = redis.execute(c -> c.serverCommands().getConfig("appendfsync"), true);

        assertThat(appendonly).containsEntry("appendonly", "yes");
        assertThat(appendfsync.getProperty("appendfsync")).isIn("everysec", "always");
    }
}
