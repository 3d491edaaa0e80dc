package io.flashsale.stores.admission;

import io.flashsale.stores.RedisKeyProperties;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamInfo.XInfoConsumer;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The admission streams as the relay sees them: consumer group {@value #GROUP} per sale. An entry
 * stays pending until {@link #done}; entries of a dead consumer are taken over by {@link #claimIdle}.
 */
public class AdmissionStream {

    static final String GROUP = "relay";

    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;
    private final RedisScript<List> claim;
    private final RedisScript<Long> ackDelete;
    private final RedisScript<List> backlog;

    public AdmissionStream(
            StringRedisTemplate redis,
            RedisKeyProperties keys,
            RedisScript<List> claim,
            RedisScript<Long> ackDelete,
            RedisScript<List> backlog) {
        this.redis = redis;
        this.keys = keys;
        this.claim = claim;
        this.ackDelete = ackDelete;
        this.backlog = backlog;
    }

    /** Ids of every sale loaded into Redis, in id order (a pass visits the sales in this order). */
    public List<String> saleIds() {
        Set<String> ids = redis.opsForSet().members(keys.sales());
        return ids == null ? List.of() : ids.stream().sorted().toList();
    }

    /**
     * Entries never delivered to any consumer (XREADGROUP ... >), without blocking. A stream whose
     * group Redis lost gets the group again (from 0: its entries are read now); a missing stream
     * has no entries.
     */
    public List<AdmissionEntry> readNew(String saleId, String consumer, int count) {
        try {
            return read(saleId, consumer, count, ReadOffset.lastConsumed());
        } catch (RedisSystemException e) {
            if (!isNoGroup(e)
                    || !Boolean.TRUE.equals(redis.hasKey(keys.sale(saleId).admissions()))) {
                return rethrowUnlessNoGroup(e);
            }
            createGroup(saleId);
            return read(saleId, consumer, count, ReadOffset.lastConsumed());
        }
    }

    /**
     * Entries already delivered to {@code consumer} and not yet {@link #done} (XREADGROUP ... 0):
     * what this consumer failed to finish on an earlier pass, e.g. while Temporal was down. None
     * when Redis lost the stream or its group (nothing of it is pending any more).
     */
    public List<AdmissionEntry> readOwnPending(String saleId, String consumer, int count) {
        try {
            return read(saleId, consumer, count, ReadOffset.from("0"));
        } catch (RedisSystemException e) {
            return rethrowUnlessNoGroup(e);
        }
    }

    /** Entries pending longer than {@code minIdle} with any consumer, now owned by {@code consumer}. */
    public List<AdmissionEntry> claimIdle(String saleId, String consumer, Duration minIdle, int count) {
        List<?> claimed = redis.execute(
                claim,
                List.of(keys.sale(saleId).admissions()),
                consumer,
                Long.toString(minIdle.toMillis()),
                Integer.toString(count));
        return StreamEntries.parse(saleId, claimed);
    }

    /** The entry's workflow exists: acknowledge and delete it, in one atomic step (ack_delete.lua). */
    public void done(String saleId, String entryId) {
        redis.execute(ackDelete, List.of(keys.sale(saleId).admissions()), entryId);
    }

    /**
     * Removes the group's consumers other than {@code self} that hold no pending entry and were idle
     * longer than {@code minIdle}: relays of stopped workers (a live relay reading again is simply
     * created again by Redis). Idempotent: XGROUP DELCONSUMER of an absent consumer changes nothing.
     *
     * @return the number of consumers removed
     */
    public int removeIdleConsumers(String saleId, String self, Duration minIdle) {
        String key = keys.sale(saleId).admissions();
        int removed = 0;
        for (XInfoConsumer consumer : consumers(key)) {
            if (!consumer.consumerName().equals(self)
                    && consumer.pendingCount() == 0
                    && consumer.idleTimeMs() > minIdle.toMillis()) {
                redis.opsForStream().deleteConsumer(key, Consumer.from(GROUP, consumer.consumerName()));
                removed++;
            }
        }
        return removed;
    }

    private List<XInfoConsumer> consumers(String key) {
        try {
            return redis.opsForStream().consumers(key, GROUP).stream().toList();
        } catch (RedisSystemException e) {
            if (isNoGroup(e)
                    || String.valueOf(e.getMostSpecificCause().getMessage()).contains("no such key")) {
                return List.of(); // Redis lost the stream or its group: no consumers left
            }
            throw e;
        }
    }

    /** The sale's admissions still waiting for the relay (backlog.lua, read only). */
    public StreamBacklog backlog(String saleId) {
        List<?> answer = redis.execute(backlog, List.of(keys.sale(saleId).admissions()));
        return StreamBacklog.of(((Number) answer.get(0)).longValue(), String.valueOf(answer.get(1)));
    }

    private List<AdmissionEntry> read(String saleId, String consumer, int count, ReadOffset offset) {
        List<MapRecord<String, Object, Object>> records = redis.opsForStream()
                .read(
                        Consumer.from(GROUP, consumer),
                        StreamReadOptions.empty().count(count),
                        StreamOffset.create(keys.sale(saleId).admissions(), offset));
        if (records == null) {
            return List.of();
        }
        records.stream().filter(AdmissionStream::isDeleted).forEach(gone -> acknowledge(saleId, gone));
        return records.stream()
                .filter(r -> !isDeleted(r))
                .map(r -> StreamEntries.entry(r.getId().getValue(), saleId, (Map<?, ?>) r.getValue()))
                .toList();
    }

    /** The api deleted the entry after starting its workflow; a pending copy has no fields left. */
    private static boolean isDeleted(MapRecord<String, Object, Object> record) {
        return record.getValue() == null || record.getValue().isEmpty();
    }

    private void acknowledge(String saleId, MapRecord<String, Object, Object> record) {
        redis.opsForStream().acknowledge(keys.sale(saleId).admissions(), GROUP, record.getId());
    }

    private static List<AdmissionEntry> rethrowUnlessNoGroup(RedisSystemException e) {
        if (isNoGroup(e)) {
            return List.of();
        }
        throw e;
    }

    /** NOGROUP: the stream or its consumer group does not exist (Redis lost the sale). */
    private static boolean isNoGroup(RedisSystemException e) {
        return String.valueOf(e.getMostSpecificCause().getMessage()).startsWith("NOGROUP");
    }

    private void createGroup(String saleId) {
        try {
            redis.opsForStream().createGroup(keys.sale(saleId).admissions(), ReadOffset.from("0"), GROUP);
        } catch (RedisSystemException e) {
            if (!String.valueOf(e.getMostSpecificCause().getMessage()).startsWith("BUSYGROUP")) {
                throw e;
            }
        }
    }
}
