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

    public AdmissionStream(StringRedisTemplate redis, RedisKeyProperties keys, RedisScript<List> claim) {
        this.redis = redis;
        this.keys = keys;
        this.claim = claim;
    }

    /** Ids of every sale loaded into Redis. */
    public Set<String> saleIds() {
        Set<String> ids = redis.opsForSet().members(keys.sales());
        return ids == null ? Set.of() : ids;
    }

    /** Entries never delivered to any consumer (XREADGROUP ... >), without blocking. */
    public List<AdmissionEntry> readNew(String saleId, String consumer, int count) {
        try {
            return read(saleId, consumer, count, ReadOffset.lastConsumed());
        } catch (RedisSystemException e) {
            if (!String.valueOf(e.getMostSpecificCause().getMessage()).startsWith("NOGROUP")) {
                throw e;
            }
            createGroup(saleId);
            return read(saleId, consumer, count, ReadOffset.lastConsumed());
        }
    }

    /**
     * Entries already delivered to {@code consumer} and not yet {@link #done} (XREADGROUP ... 0):
     * what this consumer failed to finish on an earlier pass, e.g. while Temporal was down.
     */
    public List<AdmissionEntry> readOwnPending(String saleId, String consumer, int count) {
        return read(saleId, consumer, count, ReadOffset.from("0"));
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

    /** The entry's workflow exists: acknowledge and delete it. */
    public void done(String saleId, String entryId) {
        String key = keys.sale(saleId).admissions();
        redis.opsForStream().acknowledge(key, GROUP, entryId);
        redis.opsForStream().delete(key, entryId);
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
