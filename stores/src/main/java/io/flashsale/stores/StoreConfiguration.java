package io.flashsale.stores;

import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.admission.AdmissionStream;
import io.flashsale.stores.admission.RelaySales;
import io.flashsale.stores.admission.Reservations;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The stores behind a sale, for the api and the worker: sales in MySQL, stock and admissions in
 * Redis. Expects Boot's {@link JdbcClient} and {@link StringRedisTemplate}. Each Lua script is one
 * {@link RedisScript} bean, run by EVALSHA (falling back to EVAL once after a Redis restart); the
 * purchase path's limitedAdmitScript composes rate_limit.lua and admit.lua into one.
 */
@Configuration
@EnableConfigurationProperties(RedisKeyProperties.class)
public class StoreConfiguration {

    @Bean
    SaleRepository saleRepository(JdbcClient jdbc) {
        return new SaleRepository(jdbc);
    }

    @Bean
    SaleStock saleStock(StringRedisTemplate redis, RedisKeyProperties keys) {
        return new SaleStock(redis, keys, loadSaleScript(), relaySales(redis, keys));
    }

    @Bean
    RelaySales relaySales(StringRedisTemplate redis, RedisKeyProperties keys) {
        return new RelaySales(redis, keys);
    }

    @Bean
    AdmissionGate admissionGate(StringRedisTemplate redis, RedisKeyProperties keys) {
        return new AdmissionGate(redis, keys, admitScript(), limitedAdmitScript());
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
        return script("load_sale", Long.class);
    }

    @Bean
    RedisScript<List> admitScript() {
        return script("admit", List.class);
    }

    @Bean
    RedisScript<List> rateLimitScript() {
        return script("rate_limit", List.class);
    }

    /** rate_limit.lua and admit.lua as local functions, then limited_admit.lua calling both: one EVALSHA. */
    @Bean
    RedisScript<List> limitedAdmitScript() {
        String text = function("rate_limit") + function("admit") + text("limited_admit");
        return RedisScript.of(text, List.class);
    }

    @Bean
    RedisScript<Long> confirmScript() {
        return script("confirm", Long.class);
    }

    @Bean
    RedisScript<Long> releaseScript() {
        return script("release", Long.class);
    }

    @Bean
    RedisScript<Long> voidScript() {
        return script("void", Long.class);
    }

    @Bean
    RedisScript<List> claimScript() {
        return script("claim", List.class);
    }

    @Bean
    RedisScript<Long> ackDeleteScript() {
        return script("ack_delete", Long.class);
    }

    @Bean
    RedisScript<List> backlogScript() {
        return script("backlog", List.class);
    }

    private static String function(String name) {
        return "local function " + name + "(KEYS, ARGV)\n" + text(name) + "\nend\n";
    }

    private static String text(String name) {
        try {
            return new ClassPathResource("lua/" + name + ".lua").getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read lua/" + name + ".lua", e);
        }
    }

    private static <T> RedisScript<T> script(String name, Class<T> resultType) {
        // built from the text, read once: a script built from a resource location would re-check
        // the file on every call
        return new DefaultRedisScript<>(text(name), resultType);
    }
}
