package io.flashsale.worker;

import io.flashsale.activities.ActivitiesConfiguration;
import io.flashsale.stores.health.HealthConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/**
 * The worker process: polls the purchase task queue and runs the admission relay. The Temporal
 * Spring Boot starter registers the workflow ({@code PurchaseWorkflowOnWorker}) and the activities
 * ({@code @ActivityImpl} beans of {@link ActivitiesConfiguration}) on the task queue each names.
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
