package io.flashsale.launcher;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.deployment.v1.WorkerDeploymentInfo;
import io.temporal.api.enums.v1.WorkerDeploymentVersionStatus;
import io.temporal.api.workflowservice.v1.CountWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkerDeploymentRequest;
import io.temporal.api.workflowservice.v1.SetWorkerDeploymentCurrentVersionRequest;
import io.temporal.api.workflowservice.v1.SetWorkerDeploymentRampingVersionRequest;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc.WorkflowServiceBlockingStub;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The purchase worker's Worker Deployment in one namespace, as an operator rolls out a build: route
 * new purchases to a build, list the builds, count the purchases still pinned to one. A build whose
 * workers have not polled yet cannot be routed to, so a change retries until they do.
 */
public record WorkerDeployment(WorkflowServiceStubs service, String address, String namespace, String name)
        implements AutoCloseable {

    /** The worker's deployment name ({@code FLASHSALE_WORKER_DEPLOYMENT}'s default). */
    public static final String NAME = "flashsale-worker";

    /** One build of the deployment and its status (current, ramping, draining, drained, inactive). */
    public record Build(String id, WorkerDeploymentVersionStatus status, float rampPercent) {

        /** Whether new purchases go to it: current or ramping. */
        public boolean routed() {
            return current() || status == WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING;
        }

        public boolean current() {
            return status == WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT;
        }

        /** Its status in a word, with the share of new purchases when ramping ({@code ramping 50.0 %}). */
        public String routing() {
            String word = status.name()
                    .replace("WORKER_DEPLOYMENT_VERSION_STATUS_", "")
                    .toLowerCase(Locale.ROOT);
            return status == WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING
                    ? word + " " + rampPercent + " %"
                    : word;
        }

        @Override
        public String toString() {
            return id + " " + routing();
        }
    }

    /** What Temporal answers while the build's workers have not polled yet, or while it starts. */
    private static final Set<Status.Code> NOT_YET =
            Set.of(Status.Code.NOT_FOUND, Status.Code.FAILED_PRECONDITION, Status.Code.UNAVAILABLE);

    /** The deployment {@code name} in {@code namespace} of the Temporal at {@code temporalAddress}. */
    public WorkerDeployment(String temporalAddress, String namespace, String name) {
        this(WorkflowServiceStubs.newServiceStubs(options(temporalAddress)), temporalAddress, namespace, name);
    }

    private static WorkflowServiceStubsOptions options(String temporalAddress) {
        return WorkflowServiceStubsOptions.newBuilder()
                .setTarget(temporalAddress)
                .setRpcTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** Purchases started from now on run on {@code buildId}; a ramp there was ends. */
    public void makeCurrent(String buildId, Duration patience) throws Exception {
        var request = SetWorkerDeploymentCurrentVersionRequest.newBuilder()
                .setNamespace(namespace)
                .setDeploymentName(name)
                .setBuildId(buildId)
                .setIgnoreMissingTaskQueues(true)
                .build();
        retried(buildId, patience, stub -> stub.setWorkerDeploymentCurrentVersion(request));
    }

    /** {@code percent} of the purchases started from now on run on {@code buildId}, the rest on the current build. */
    public void ramp(String buildId, float percent, Duration patience) throws Exception {
        var request = SetWorkerDeploymentRampingVersionRequest.newBuilder()
                .setNamespace(namespace)
                .setDeploymentName(name)
                .setBuildId(buildId)
                .setPercentage(percent)
                .setIgnoreMissingTaskQueues(true)
                .build();
        retried(buildId, patience, stub -> stub.setWorkerDeploymentRampingVersion(request));
    }

    /** The builds Temporal knows of this deployment; none before a versioned worker polled. */
    public List<Build> builds() {
        try {
            WorkerDeploymentInfo info = service.blockingStub()
                    .describeWorkerDeployment(DescribeWorkerDeploymentRequest.newBuilder()
                            .setNamespace(namespace)
                            .setDeploymentName(name)
                            .build())
                    .getWorkerDeploymentInfo();
            float ramp = info.getRoutingConfig().getRampingVersionPercentage();
            return info.getVersionSummariesList().stream()
                    .map(version -> new Build(version.getDeploymentVersion().getBuildId(), version.getStatus(), ramp))
                    .toList();
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == Status.Code.NOT_FOUND
                    || e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
                return List.of(); // no versioned worker polled yet, or a Temporal without Worker Versioning
            }
            throw unanswered(e);
        }
    }

    /** The build new purchases go to, if one is current (else they run unversioned). */
    public Optional<String> current() {
        return builds().stream().filter(Build::current).map(Build::id).findFirst();
    }

    /** How many workflows pinned to {@code buildId} still run, as Temporal's visibility counts them. */
    public long runningOn(String buildId) {
        try {
            return service.blockingStub()
                    .countWorkflowExecutions(CountWorkflowExecutionsRequest.newBuilder()
                            .setNamespace(namespace)
                            .setQuery("TemporalWorkerDeploymentVersion = '" + name + ":" + buildId
                                    + "' AND ExecutionStatus = 'Running'")
                            .build())
                    .getCount();
        } catch (StatusRuntimeException e) {
            throw unanswered(e);
        }
    }

    private IllegalStateException unanswered(StatusRuntimeException e) {
        return new IllegalStateException("Temporal " + address + " (namespace " + namespace + "): " + e.getStatus(), e);
    }

    /** {@code change}, again every 500 ms for up to {@code patience} while the build's workers have not polled. */
    private void retried(String buildId, Duration patience, Consumer<WorkflowServiceBlockingStub> change)
            throws Exception {
        Await.until(
                "build " + buildId + " of " + name + " to be routable (is a worker of it polling?)",
                patience,
                Duration.ofMillis(500),
                () -> {
                    try {
                        change.accept(service.blockingStub());
                        return Status.OK;
                    } catch (StatusRuntimeException notYet) {
                        if (!NOT_YET.contains(notYet.getStatus().getCode())) {
                            throw unanswered(notYet);
                        }
                        return notYet.getStatus();
                    }
                },
                Status::isOk);
    }

    @Override
    public void close() {
        service.shutdown();
    }
}
