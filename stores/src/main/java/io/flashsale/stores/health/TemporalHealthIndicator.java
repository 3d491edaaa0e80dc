package io.flashsale.stores.health;

import io.grpc.health.v1.HealthCheckResponse;
import io.temporal.serviceclient.WorkflowServiceStubs;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Temporal's frontend answers its gRPC health check. Part of readiness in the api and the worker:
 * without Temporal the api cannot start purchases (admissions wait in the stream) and the worker
 * cannot poll.
 */
public class TemporalHealthIndicator implements HealthIndicator {

    private final WorkflowServiceStubs temporal;

    public TemporalHealthIndicator(WorkflowServiceStubs temporal) {
        this.temporal = temporal;
    }

    @Override
    public Health health() {
        try {
            HealthCheckResponse.ServingStatus status = temporal.healthCheck().getStatus();
            Health.Builder health = status == HealthCheckResponse.ServingStatus.SERVING ? Health.up() : Health.down();
            return health.withDetail("target", temporal.getOptions().getTarget())
                    .withDetail("status", status.name())
                    .build();
        } catch (RuntimeException e) {
            return Health.down(e).build();
        }
    }
}
