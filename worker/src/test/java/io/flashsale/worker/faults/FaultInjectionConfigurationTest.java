package io.flashsale.worker.faults;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class FaultInjectionConfigurationTest {

    private final ApplicationContextRunner worker =
            new ApplicationContextRunner().withUserConfiguration(FaultInjectionConfiguration.class);

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
