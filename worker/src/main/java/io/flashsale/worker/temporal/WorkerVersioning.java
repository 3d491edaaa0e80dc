package io.flashsale.worker.temporal;

import io.flashsale.worker.WorkerProperties;
import io.temporal.common.VersioningBehavior;
import io.temporal.common.WorkerDeploymentVersion;
import io.temporal.spring.boot.WorkerOptionsCustomizer;
import io.temporal.worker.WorkerDeploymentOptions;
import io.temporal.worker.WorkerOptions;
import org.springframework.stereotype.Component;

/**
 * Worker Versioning: with a build id ({@code FLASHSALE_WORKER_BUILD_ID}) the worker polls as that
 * version of its Worker Deployment, and every workflow it runs is Pinned: a purchase ends on the
 * build that started it, whatever build an operator makes current meanwhile (a purchase lives at
 * most its pay timeout, so an old build drains within one). New purchases go to the deployment's
 * current (or ramping) version. Without a build id the worker is unversioned, as before.
 */
@Component
class WorkerVersioning implements WorkerOptionsCustomizer {

    private final WorkerProperties.Deployment deployment;

    WorkerVersioning(WorkerProperties properties) {
        this.deployment = properties.deployment();
    }

    @Override
    public WorkerOptions.Builder customize(WorkerOptions.Builder options, String workerName, String taskQueue) {
        if (!deployment.versioned()) {
            return options;
        }
        return options.setDeploymentOptions(WorkerDeploymentOptions.newBuilder()
                .setUseVersioning(true)
                .setVersion(new WorkerDeploymentVersion(deployment.name(), deployment.buildId()))
                .setDefaultVersioningBehavior(VersioningBehavior.PINNED)
                .build());
    }
}
