package io.flashsale.api;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The REST service. Admission runs here (one Redis Lua call); purchases then live in Temporal, so
 * this process never touches MySQL for a purchase. Sale admin writes MySQL and loads Redis. The
 * stores come in through {@link StoresConfiguration}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ApiApplication {

    public static void main(String[] args) {
        SpringApplication.run(ApiApplication.class, args);
    }
}
