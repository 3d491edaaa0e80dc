package io.flashsale.worker.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.worker.WorkerProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.ConfigDataApplicationContextInitializer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class FaultInjectionConfigurationTest {

    /** The worker's own settings (application.yaml) bound as in the worker, and the configuration under test. */
    private final ApplicationContextRunner worker = new ApplicationContextRunner()
            .withInitializer(new ConfigDataApplicationContextInitializer())
            .withUserConfiguration(WorkerSettings.class, FaultInjectionConfiguration.class);

    @EnableConfigurationProperties(WorkerProperties.class)
    static class WorkerSettings {}

    @Test
    void isOffUnlessActivityTypesAreNamed() {
        worker.withPropertyValues("flashsale.worker.pause-after=", "spring.profiles.active=dev")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(PauseAfterActivities.class));
    }

    @Test
    void armsTheNamedActivitiesUnderTheDevProfile() {
        worker.withPropertyValues("flashsale.worker.pause-after=CreateOrder", "spring.profiles.active=dev")
                .run(context -> assertThat(
                                context.getBean(PauseAfterActivities.class).activityTypes())
                        .containsExactly("CreateOrder"));
    }

    @Test
    void refusesToStartOutsideTheDevProfile() {
        worker.withPropertyValues("flashsale.worker.pause-after=CreateOrder").run(context -> assertThat(context)
                .hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("needs the dev profile"));
    }
}
