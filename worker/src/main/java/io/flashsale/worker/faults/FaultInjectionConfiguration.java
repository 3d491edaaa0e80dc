package io.flashsale.worker.faults;

import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.ReservationActivities;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link PauseAfterActivities}, registered (the Temporal starter adds every {@code WorkerInterceptor}
 * bean) only when {@code flashsale.worker.pause-after} names activity types.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("!'${flashsale.worker.pause-after:}'.isBlank()")
class FaultInjectionConfiguration {

    @Bean
    PauseAfterActivities pauseAfterActivities(@Value("${flashsale.worker.pause-after}") List<String> activityTypes) {
        PauseAfterActivities pause =
                new PauseAfterActivities(activityTypes, List.of(ReservationActivities.class, OrderActivities.class));
        LoggerFactory.getLogger(PauseAfterActivities.class)
                .warn(
                        "fault injection armed: activities {} pause after their work until the process is killed",
                        pause.activityTypes());
        return pause;
    }
}
