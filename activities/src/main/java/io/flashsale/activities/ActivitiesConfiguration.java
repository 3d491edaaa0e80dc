package io.flashsale.activities;

import io.flashsale.activities.order.OrderActivitiesImpl;
import io.flashsale.activities.reservation.ReservationActivitiesImpl;
import io.flashsale.stores.StoreConfiguration;
import io.flashsale.stores.admission.Reservations;
import io.flashsale.stores.order.OrderRepository;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Everything the worker hosts: the stores plus the activity implementations. Each implementation
 * names its task queue in {@code @ActivityImpl}; the worker's Temporal starter registers every such
 * bean on it.
 */
@Configuration
@Import(StoreConfiguration.class)
public class ActivitiesConfiguration {

    @Bean
    ReservationActivitiesImpl reservationActivities(Reservations reservations) {
        return new ReservationActivitiesImpl(reservations);
    }

    @Bean
    OrderActivitiesImpl orderActivities(OrderRepository orders, TransactionTemplate transaction) {
        return new OrderActivitiesImpl(orders, transaction);
    }
}
