package io.flashsale.api.purchase;

import io.flashsale.api.ApiProperties;
import io.flashsale.stores.LuaScripts;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.admission.SoldOutMarks;
import io.flashsale.stores.admission.SoldOutSnapshots;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The api's sold-out marks, and the subscription that drops a sale's mark when Redis announces a
 * unit came back (release.lua, repair.lua, load_sale.lua publish the sale id on {@link
 * RedisKeyProperties#stockReturned()}).
 */
@Configuration(proxyBeanMethods = false)
class SoldOutMarkConfiguration {

    @Bean
    SoldOutMarks soldOutMarks(StringRedisTemplate redis, RedisKeyProperties keys, ApiProperties properties) {
        ApiProperties.SoldOutMark settings = properties.soldOutMark();
        SoldOutSnapshots snapshots = new SoldOutSnapshots(
                redis, keys, LuaScripts.load("sold_out_snapshot", List.class), settings.maxBuyers());
        return new SoldOutMarks(snapshots, settings.ttl(), System::nanoTime);
    }

    /** Lettuce re-subscribes after a lost connection; announcements missed meanwhile are bounded by the ttl. */
    @Bean
    RedisMessageListenerContainer stockReturnedListener(
            RedisConnectionFactory connections, RedisKeyProperties keys, SoldOutMarks marks) {
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(connections);
        container.addMessageListener(
                (message, pattern) -> marks.stockReturned(new String(message.getBody(), StandardCharsets.UTF_8)),
                new ChannelTopic(keys.stockReturned()));
        return container;
    }
}
