package io.flashsale.worker;

import io.flashsale.activities.ActivitiesConfiguration;
import io.flashsale.stores.health.HealthConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/**
 * The worker process: polls the purchase task queue (workflow and activities, registered by the
 * Temporal Spring Boot starter from {@code spring.temporal.workers}) and runs the admission relay.
 * Scale out by starting more of them.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@Import({ActivitiesConfiguration.class, HealthConfiguration.class})
public class WorkerApplication {

    public static void main(String[] args) {
        SpringApplication.run(WorkerApplication.class, args);
    }
}
