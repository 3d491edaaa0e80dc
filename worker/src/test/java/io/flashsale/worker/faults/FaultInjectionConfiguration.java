package io.flashsale.worker.faults;

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
 * bean) only when {@code flashsale.worker.pause-after} ({@code FLASHSALE_PAUSE_AFTER}) names activity
 * types, and refused (the worker does not start) outside the {@code dev} profile. It is test code:
 * the worker's jar does not hold it; the end-to-end tests put the worker's {@code faults} jar (this
 * package) on the class path of a worker they mean to crash at an exact step, where the worker's
 * component scan finds it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${flashsale.worker.pause-after:${FLASHSALE_PAUSE_AFTER:}}'.isBlank()")
public class FaultInjectionConfiguration {

    @Bean
    PauseAfterActivities pauseAfterActivities(Environment environment) {
        if (!environment.matchesProfiles("dev")) {
            throw new IllegalStateException("flashsale.worker.pause-after (FLASHSALE_PAUSE_AFTER) is fault injection"
                    + " for tests and needs the dev profile (SPRING_PROFILES_ACTIVE=dev)");
        }
        PauseAfterActivities pause = new PauseAfterActivities(
                List.of(environment
                        .getProperty(
                                "flashsale.worker.pause-after", environment.getProperty("FLASHSALE_PAUSE_AFTER", ""))
                        .split(",")),
                List.of(ReservationActivities.class, OrderActivities.class));
        LoggerFactory.getLogger(PauseAfterActivities.class)
                .warn(
                        "fault injection armed: activities {} pause after their work until the process is killed",
                        pause.activityTypes());
        return pause;
    }
}
