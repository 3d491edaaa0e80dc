package io.flashsale.api;

import io.flashsale.stores.StoreConfiguration;
import io.flashsale.stores.health.HealthConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/**
 * The REST service. Admission runs here (one Redis Lua call); purchases then live in Temporal, so
 * this process never touches MySQL for a purchase. Sale admin writes MySQL and loads Redis.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@Import({StoreConfiguration.class, HealthConfiguration.class})
public class ApiApplication {

    public static void main(String[] args) {
        SpringApplication.run(ApiApplication.class, args);
    }
}
