package io.flashsale.worker.faults;

import io.flashsale.worker.WorkerProperties;
import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.ReservationActivities;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * {@link PauseAfterActivities}, registered (the Temporal starter adds every {@code WorkerInterceptor}
 * bean) only when {@code flashsale.worker.pause-after} ({@link WorkerProperties#pauseAfter()}) names
 * activity types, and refused (the worker does not start) outside the {@code dev} profile: a worker
 * that hangs activities on purpose has no place in production.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${flashsale.worker.pause-after:}'.isBlank()")
class FaultInjectionConfiguration {

    @Bean
    PauseAfterActivities pauseAfterActivities(WorkerProperties properties, Environment environment) {
        if (!environment.matchesProfiles("dev")) {
            throw new IllegalStateException("flashsale.worker.pause-after (FLASHSALE_PAUSE_AFTER) is fault injection"
                    + " for tests and needs the dev profile (SPRING_PROFILES_ACTIVE=dev)");
        }
        PauseAfterActivities pause = new PauseAfterActivities(
                properties.pauseAfter(), List.of(ReservationActivities.class, OrderActivities.class));
        LoggerFactory.getLogger(PauseAfterActivities.class)
                .warn(
                        "fault injection armed: activities {} pause after their work until the process is killed",
                        pause.activityTypes());
        return pause;
    }
}
