package io.flashsale.api.testing;

import io.flashsale.activities.order.OrderActivitiesImpl;
import io.flashsale.activities.reservation.ReservationActivitiesImpl;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.admission.Reservations;
import io.flashsale.stores.order.OrderRepository;
import io.flashsale.stores.testing.StoreProbe;
import io.temporal.client.WorkflowClient;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What an api test context adds to the api: the purchase worker (so purchases progress) with order
 * steps a test can hold, the in-process Temporal it closes last, and a probe into MySQL and Redis.
 */
@TestConfiguration(proxyBeanMethods = false)
public class ApiTestConfiguration {

    @Bean
    DevTemporal devTemporal() {
        return DevTemporal.current();
    }

    /** Depends on {@code devTemporal}, so the context stops the worker before the server. */
    @Bean
    TestPurchaseWorker testPurchaseWorker(
            DevTemporal devTemporal, WorkflowClient client, Reservations reservations, HeldOrders orders) {
        return new TestPurchaseWorker(client, new ReservationActivitiesImpl(reservations), orders);
    }

    @Bean
    HeldOrders heldOrders(OrderRepository orders, TransactionTemplate transaction) {
        return new HeldOrders(new OrderActivitiesImpl(orders, transaction));
    }

    @Bean
    StoreProbe storeProbe(JdbcClient jdbc, StringRedisTemplate redis, RedisKeyProperties keys) {
        return new StoreProbe(jdbc, redis, keys);
    }
}
