package io.flashsale.worker.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.worker.WorkerProperties;
import io.temporal.common.VersioningBehavior;
import io.temporal.common.WorkerDeploymentVersion;
import io.temporal.worker.WorkerOptions;
import org.junit.jupiter.api.Test;

/** What the customizer sets; that a purchase stays on its build shows in the e2e WorkerRolloutIT. */
class WorkerVersioningTest {

    @Test
    void pollsAsItsBuildOfTheDeploymentAndPinsEveryWorkflow() {
        WorkerOptions options = customized("b-42");

        assertThat(options.getDeploymentOptions().isUsingVersioning()).isTrue();
        assertThat(options.getDeploymentOptions().getVersion())
                .isEqualTo(new WorkerDeploymentVersion("flashsale-worker", "b-42"));
        assertThat(options.getDeploymentOptions().getDefaultVersioningBehavior())
                .isEqualTo(VersioningBehavior.PINNED);
    }

    @Test
    void staysUnversionedWithoutABuildId() {
        assertThat(customized("").getDeploymentOptions()).isNull();
    }

    private static WorkerOptions customized(String buildId) {
        WorkerProperties properties = new WorkerProperties(
                null, null, null, null, true, new WorkerProperties.Deployment("flashsale-worker", buildId));
        return new WorkerVersioning(properties)
                .customize(WorkerOptions.newBuilder(), "worker", "flashsale-purchase")
                .build();
    }
}
