package io.flashsale.stores.replication;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How many replicas must have a write before the answer that rests on it (an admission's 202, a sale
 * change's 200) is given ({@link ReplicaAcks}).
 *
 * @param replicas 0: the master's acknowledgement is enough (a single Redis, today's behaviour); 1
 *     or more: WAIT for that many replicas of a single master (standalone or Sentinel)
 * @param timeout how long one wait may take before the answer goes out acknowledged by the master
 *     only; also how long such a degraded spell lasts before replicas are asked again
 */
@Validated
@ConfigurationProperties("flashsale.redis.replication")
public record ReplicationProperties(@DefaultValue("0") @Min(0) int replicas, @DefaultValue("500ms") Duration timeout) {}
