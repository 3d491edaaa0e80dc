package io.flashsale.stores;

import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.AdmissionStream;
import io.flashsale.stores.admission.RelaySales;
import io.flashsale.stores.admission.Reservations;
import io.flashsale.stores.order.OrderRepository;
import io.flashsale.stores.payment.PaymentRefunds;
import io.flashsale.stores.replication.ReplicationConfiguration;
import io.flashsale.stores.sale.SaleArchive;
import io.flashsale.stores.sale.SaleChangesConfiguration;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The stores behind a sale, for the api and the worker: sales and orders in MySQL, stock and
 * admissions in Redis. Expects Boot's {@link JdbcClient} and {@link StringRedisTemplate}. Each Lua script the
 * stores run is one {@link RedisScript} bean, loaded by {@link LuaScripts}; the purchase path's
 * limitedAdmitScript composes rate_limit.lua and admit.lua into one.
 */
@Configuration
@EnableConfigurationProperties(RedisKeyProperties.class)
@Import({SaleChangesConfiguration.class, SqlTracingConfiguration.class, ReplicationConfiguration.class})
public class StoreConfiguration {

    @Bean
    SaleRepository saleRepository(JdbcClient jdbc) {
        return new SaleRepository(jdbc);
    }

    @Bean
    SaleStock saleStock(StringRedisTemplate redis, RedisKeyProperties keys) {
        return new SaleStock(redis, keys, loadSaleScript(), relaySales(redis, keys));
    }

    /** The worker's order activities write through it; the api never touches orders. */
    @Bean
    OrderRepository orderRepository(JdbcClient jdbc) {
        return new OrderRepository(jdbc);
    }

    @Bean
    PaymentRefunds paymentRefunds(JdbcClient jdbc) {
        return new PaymentRefunds(jdbc);
    }

    @Bean
    SaleArchive saleArchive(SaleRepository sales, StringRedisTemplate redis, RedisKeyProperties keys) {
        return new SaleArchive(sales, redis, keys, archiveScript(), relaySales(redis, keys));
    }

    @Bean
    RelaySales relaySales(StringRedisTemplate redis, RedisKeyProperties keys) {
        return new RelaySales(redis, keys);
    }

    @Bean
    AdmissionGate admissionGate(StringRedisTemplate redis, RedisKeyProperties keys) {
        return new AdmissionGate(redis, keys, limitedAdmitScript());
    }

    @Bean
    Reservations reservations(StringRedisTemplate redis, RedisKeyProperties keys) {
        return new Reservations(redis, keys, confirmScript(), releaseScript(), voidScript());
    }

    @Bean
    AdmissionStream admissionStream(StringRedisTemplate redis, RedisKeyProperties keys) {
        return new AdmissionStream(redis, keys, claimScript(), ackDeleteScript(), backlogScript());
    }

    @Bean
    RedisScript<Long> loadSaleScript() {
        return LuaScripts.load("load_sale", Long.class);
    }

    /** rate_limit.lua and admit.lua composed into one script (see {@link LuaScripts#limitedAdmit()}). */
    @Bean
    RedisScript<List> limitedAdmitScript() {
        return LuaScripts.limitedAdmit();
    }

    @Bean
    RedisScript<Long> confirmScript() {
        return LuaScripts.load("confirm", Long.class);
    }

    @Bean
    RedisScript<Long> releaseScript() {
        return LuaScripts.load("release", Long.class);
    }

    @Bean
    RedisScript<Long> voidScript() {
        return LuaScripts.load("void", Long.class);
    }

    @Bean
    RedisScript<List> claimScript() {
        return LuaScripts.load("claim", List.class);
    }

    @Bean
    RedisScript<Long> ackDeleteScript() {
        return LuaScripts.load("ack_delete", Long.class);
    }

    @Bean
    RedisScript<Long> archiveScript() {
        return LuaScripts.load("archive", Long.class);
    }

    @Bean
    RedisScript<List> backlogScript() {
        return LuaScripts.load("backlog", List.class);
    }
}
