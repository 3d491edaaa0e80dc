package io.flashsale.worker;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Worker settings; defaults live in {@code application.yaml}.
 *
 * @param capacity how many tasks the worker runs and polls for at once
 * @param drainTimeout on shutdown, how long in-flight workflow and activity tasks may finish after
 *     polling stopped
 * @param stickyExecution sticky task queues on or off (see {@code StickyExecution})
 * @param deployment the Worker Deployment this worker's build belongs to (Worker Versioning)
 */
@Validated
@ConfigurationProperties("flashsale.worker")
public record WorkerProperties(
        @Valid @NotNull Relay relay,
        @Valid @NotNull Archive archive,
        @Valid @NotNull Capacity capacity,
        @NotNull Duration drainTimeout,
        boolean stickyExecution,
        @Valid @NotNull Deployment deployment) {

    /**
     * Worker Versioning (see {@code WorkerVersioning}): with a build id the worker polls as that
     * version of the deployment, and every purchase it starts is pinned to it.
     *
     * @param name the Worker Deployment's name, one per kind of worker
     * @param buildId this build's id; empty: an unversioned worker, as before versioning
     */
    public record Deployment(@NotBlank String name, @NotNull String buildId) {

        public boolean versioned() {
            return !buildId.isBlank();
        }
    }

    /**
     * The admission relay.
     *
     * @param enabled off only for tests that play a dead relay
     * @param consumer this worker's consumer name in the stream's consumer group
     * @param pollInterval pause between two passes over the sales' admission streams
     * @param handoff a sale's stream is read only once its oldest entry is this old: younger ones are
     *     being started by the api that admitted them
     * @param claimIdle an entry pending this long at another (dead) consumer is taken over
     * @param batchSize entries read at once from a sale's stream
     * @param startConcurrency workflow starts under way at once
     * @param grace a sale ended longer ago than this, with an empty stream, is no longer visited
     * @param consumerIdle consumers of the group (other than this one) idle this long with nothing
     *     pending are removed, once per this period: relays of stopped workers do not pile up
     */
    public record Relay(
            boolean enabled,
            @NotBlank String consumer,
            @NotNull Duration pollInterval,
            @NotNull Duration handoff,
            @NotNull Duration claimIdle,
            @Min(1) int batchSize,
            @Min(1) int startConcurrency,
            @NotNull Duration grace,
            @NotNull Duration consumerIdle) {}

    /**
     * The archive of ended sales' Redis side (see {@code SaleArchiver}).
     *
     * @param enabled off only for tests that archive by hand
     * @param after a sale is archived once it ended this long ago and every purchase is final
     * @param interval pause between two passes
     * @param batchSize sales looked at per pass, oldest end first
     * @param marker how long the small marker of an archived sale stays in Redis, so that a late
     *     buyer is told "not open" rather than "no such sale"
     */
    public record Archive(
            boolean enabled,
            @NotNull Duration after,
            @NotNull Duration interval,
            @Min(1) int batchSize,
            @NotNull Duration marker) {}

    /**
     * The worker's capacity (see {@code WorkerCapacity}).
     *
     * @param workflowTasks workflow tasks executed at once
     * @param activities activities executed at once
     * @param localActivities local activities (the steps to the order, run inside workflow tasks)
     *     executed at once
     * @param workflowPollers concurrent polls for workflow tasks
     * @param activityPollers concurrent polls for activity tasks
     */
    public record Capacity(
            @Min(1) int workflowTasks,
            @Min(1) int activities,
            @Min(1) int localActivities,
            @Min(1) int workflowPollers,
            @Min(1) int activityPollers) {}
}
