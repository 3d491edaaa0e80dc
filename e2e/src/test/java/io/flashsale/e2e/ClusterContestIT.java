package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.TestTokens;
import io.flashsale.launcher.redis.RedisNode;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import io.flashsale.stores.testing.TestSales;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contest of {@link FlashSaleEndToEndIT} (100 buyers clicking twice for 10 units: exactly 10
 * winners, 5 paid, 5 expired, their units back once) with the api and two workers on a Redis
 * Cluster of 3 masters with a replica each.
 */
@OnRedisCluster
class ClusterContestIT extends FlashSaleEndToEndIT {

    /** Sales on every master; the processes never fall back to the single Redis of REDIS_URL. */
    @Test
    void keepsEachSaleOnTheMasterOfItsSlotAndNothingOnTheSingleRedis() {
        RedisKeyProperties keys = new RedisKeyProperties(system.environment().get("FLASHSALE_REDIS_PREFIX"));
        List<String> sales = new ArrayList<>();
        for (RedisNode master : cluster.masters()) {
            String saleId = saleOn(master, keys);
            assertThat(api.createSale(TestTokens.admin(), saleId, 3, Duration.ofMinutes(5))
                            .status())
                    .isEqualTo(201);
            assertThat(api.purchase(TestTokens.buyer("spread"), saleId, "key-spread")
                            .status())
                    .isEqualTo(202);
            sales.add(saleId);
        }

        for (String saleId : sales) {
            SaleKeys sale = keys.sale(saleId);
            String saleKeys = sale.stock().replace(":stock", ":*");
            RedisNode owner = cluster.masterOf(sale.stock());
            assertThat(cluster.keys(owner, saleKeys))
                    .contains(sale.meta(), sale.stock(), sale.buyers(), sale.holds(), sale.admissions());
            for (RedisNode master : cluster.masters()) {
                if (!master.equals(owner)) {
                    assertThat(cluster.keys(master, saleKeys))
                            .as("keys of %s on %s", saleId, master)
                            .isEmpty();
                }
            }
            assertThat(api.get("/api/sales/" + saleId, TestTokens.admin())
                            .body()
                            .path("redisStock")
                            .asInt())
                    .isEqualTo(2);
        }
        assertThat(singleRedisKeys(keys.keyPrefix() + "*")).isEmpty();
    }

    private static String saleOn(RedisNode master, RedisKeyProperties keys) {
        String saleId = TestSales.newId();
        while (!cluster.masterOf(keys.sale(saleId).stock()).equals(master)) {
            saleId = TestSales.newId();
        }
        return saleId;
    }

    private static List<String> singleRedisKeys(String pattern) {
        RedisClient client = RedisClient.create(system.environment().get("REDIS_URL"));
        try (StatefulRedisConnection<String, String> redis = client.connect()) {
            return redis.sync().keys(pattern);
        } finally {
            client.shutdown();
        }
    }
}
